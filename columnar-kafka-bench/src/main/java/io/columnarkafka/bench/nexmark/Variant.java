package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.VariantSpelling;
import io.columnarkafka.flink.table.ColumnarOptions;
import io.columnarkafka.planner.PlannerOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * Which connectors a cell reads and writes through, and (columnar) the planner options its session sets. Stock:
 * Flink's {@code kafka} and {@code upsert-kafka}. Columnar: {@code kafka-columnar} / {@code upsert-kafka-columnar}
 * sinks, and the {@code kafka-columnar} source once a source factory of that name is on the classpath (until then
 * the cell reads through {@code kafka}, and the report says so). A columnar variant with planner options (a {@link
 * PlannerOptions#PATH_CHOICES path choice} each, key relative to {@link PlannerOptions#PREFIX}) is an extra variant
 * of an A/B run: {@code columnar:edge-rows=VIEWS}, {@code columnar:edge-rows=VIEWS+local-window-agg.vectorised=false}.
 * So is a columnar variant with JVM system properties ({@code -DKEY=VALUE}, {@code columnarkafka.*} keys only), which
 * every JVM running the cell's tasks gets: the cell's JVM, and in a recovery cell also the cluster's job manager and
 * TaskManagers ({@link RecoveryCell}), e.g. {@code columnar:-Dcolumnarkafka.arrow.warm-up=false}; it mixes with
 * planner options: {@code columnar:edge-rows=VIEWS+-Dcolumnarkafka.arrow.warm-up=false}. So is a columnar variant
 * with options of the columnar result table ({@code columnar.*} keys only: the connector's own), e.g. {@code
 * columnar:columnar.sink.max-queue-delay=0} or {@code columnar:columnar.max-latency=20ms}.
 * The A/A control {@value AaControl#CONTROL_ID} is the default columnar variant again under a label of its own, an
 * extra variant whose ratio to the default one is the run's noise ({@link AaControl}).
 * Floor ({@code --floor on}, stateless queries only): no SQL, stock's output values looked up per input record and
 * written through Flink's Kafka source and sink ({@link FloorJob}).
 *
 * @param plannerOptions relative key to value, sorted by key; empty for stock, the default columnar variant and the
 *     A/A control
 * @param jvmProperties system property key to value, sorted by key; empty for stock, the default columnar variant and
 *     the A/A control
 * @param control the A/A control: the default columnar configuration, run as a variant of its own
 */
record Variant(Kind kind, SortedMap<String, String> plannerOptions, SortedMap<String, String> jvmProperties,
               SortedMap<String, String> sinkOptions, boolean control) implements Comparable<Variant> {
    /** What runs the cell's query; the order is the report's. */
    enum Kind { STOCK, COLUMNAR, FLOOR }

    static final Variant STOCK = new Variant(Kind.STOCK, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), false);
    static final Variant COLUMNAR =
            new Variant(Kind.COLUMNAR, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), false);
    static final Variant FLOOR = new Variant(Kind.FLOOR, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), false);
    static final Variant CONTROL = new Variant(Kind.COLUMNAR, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), true);
    /** What starts a JVM system property in a variant's id, as on a java command line. */
    static final String PROPERTY_FLAG = "-D";
    /**
     * The keys a variant's JVM properties may have: columnar-kafka's own switches. A JVM-wide setting (heap, GC, a
     * JDK, Flink or Kafka property) given to one variant's JVMs only would make the A/B one of JVMs, not of our code;
     * those go to every cell alike ({@code CHILD_JAVA_OPTS}, {@code TASKMANAGER_JAVA_OPTS}).
     */
    static final String PROPERTY_PREFIX = "columnarkafka.";
    private static final Pattern PROPERTY_KEY = Pattern.compile(Pattern.quote(PROPERTY_PREFIX) + "[A-Za-z0-9._-]+");
    /** No whitespace (the JVM options are a space-separated list) and no quotes (no shell in between). */
    private static final Pattern PROPERTY_VALUE = Pattern.compile("[^\\s'\"]+");
    /**
     * The keys a variant's result-table options may have: the columnar connector's own ({@code columnar.*}), which
     * change how it batches and sends, never what it writes; the Kafka and format options stay the query's.
     */
    static final String SINK_OPTION_PREFIX = ColumnarOptions.PREFIX;

    private static final String COLUMNAR_SOURCE = columnarSource();

    Variant {
        plannerOptions = Collections.unmodifiableSortedMap(new TreeMap<>(plannerOptions));
        jvmProperties = Collections.unmodifiableSortedMap(new TreeMap<>(jvmProperties));
        sinkOptions = Collections.unmodifiableSortedMap(new TreeMap<>(sinkOptions));
        if (control && (kind != Kind.COLUMNAR || !plannerOptions.isEmpty() || !jvmProperties.isEmpty()
                || !sinkOptions.isEmpty())) {
            throw new IllegalArgumentException("the A/A control is the default columnar variant, without options");
        }
    }

    /**
     * {@code stock}, {@code columnar}, {@code columnar#2} (the A/A control), {@code floor} or {@code
     * columnar:ITEM[+ITEM...]}, each item a planner option {@code KEY=VALUE}, a result-table option {@code
     * columnar.sink.KEY=VALUE} or a JVM property {@code -Dcolumnarkafka.KEY=VALUE}; throws {@link IllegalArgumentException} on any other form, an unknown planner
     * option or a value the option does not take, a property outside {@value #PROPERTY_PREFIX}, or a key set twice.
     */
    static Variant parse(String id) {
        if (id.equals("stock")) {
            return STOCK;
        }
        if (id.equals("columnar")) {
            return COLUMNAR;
        }
        if (id.equals(AaControl.CONTROL_ID)) {
            return CONTROL;
        }
        if (id.equals("floor")) {
            return FLOOR;
        }
        List<String> items = VariantSpelling.items(id, "ITEM[" + VariantSpelling.OPTION_SEPARATOR
                + "ITEM...], an ITEM a planner option KEY=VALUE, a result-table option " + SINK_OPTION_PREFIX
                + "KEY=VALUE or a JVM property " + PROPERTY_FLAG + PROPERTY_PREFIX + "KEY=VALUE");
        SortedMap<String, String> options = new TreeMap<>();
        SortedMap<String, String> properties = new TreeMap<>();
        SortedMap<String, String> sink = new TreeMap<>();
        for (String item : items) {
            boolean property = item.startsWith(PROPERTY_FLAG);
            String flag = property ? PROPERTY_FLAG : "";
            Map.Entry<String, String> option = VariantSpelling.keyValue(id, item, flag);
            boolean sinkOption = !property && option.getKey().startsWith(SINK_OPTION_PREFIX);
            if (property) {
                checkProperty(id, option.getKey(), option.getValue());
            } else if (!sinkOption) {
                VariantSpelling.checkPlannerOption(option);
            }
            VariantSpelling.putOnce(property ? properties : sinkOption ? sink : options, id, flag, option);
        }
        return new Variant(Kind.COLUMNAR, options, properties, sink, false);
    }

    private static void checkProperty(String id, String key, String value) {
        if (!PROPERTY_KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("variant '" + id + "': JVM property '" + key + "' is not a "
                    + PROPERTY_PREFIX + "* key (a variant varies columnar-kafka's own switches; JVM-wide options go to"
                    + " every cell alike: CHILD_JAVA_OPTS, TASKMANAGER_JAVA_OPTS)");
        }
        if (!PROPERTY_VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException("variant '" + id + "': JVM property " + key + " has a value with"
                    + " whitespace or quotes: '" + value + "'");
        }
    }

    /** The form {@link #parse} reads: the report's and the cell arguments' name of the variant. */
    String id() {
        if (kind != Kind.COLUMNAR) {
            return kind.name().toLowerCase(Locale.ROOT);
        }
        if (control) {
            return AaControl.CONTROL_ID;
        }
        List<String> items = new ArrayList<>(VariantSpelling.items(plannerOptions));
        items.addAll(VariantSpelling.items(sinkOptions));
        items.addAll(jvmOptions());
        return VariantSpelling.id(items);
    }

    /** The JVM properties as java command-line options, {@code -DKEY=VALUE}, sorted by key. */
    List<String> jvmOptions() {
        return jvmProperties.entrySet().stream().map(e -> PROPERTY_FLAG + e.getKey() + "=" + e.getValue()).toList();
    }

    /** The planner options with their full keys, as the cell's session sets them. */
    Map<String, String> sessionOptions() {
        return VariantSpelling.sessionOptions(plannerOptions);
    }

    /** The columnar connectors (and planner stage), with or without extra planner options. */
    boolean columnar() {
        return kind == Kind.COLUMNAR;
    }

    /**
     * A columnar variant with planner options or JVM properties, or the A/A control: measured against stock and
     * against the default columnar one, in rows of its own.
     */
    boolean extra() {
        return control || !plannerOptions.isEmpty() || !jvmProperties.isEmpty() || !sinkOptions.isEmpty();
    }

    String source() {
        return columnar() ? COLUMNAR_SOURCE : "kafka";
    }

    String sink(NexmarkQuery query) {
        return columnar() ? (query.upsert() ? "upsert-kafka-columnar" : "kafka-columnar")
                : (query.upsert() ? "upsert-kafka" : "kafka");
    }

    /** The cell label's variant part: s, c, c with the options and properties, c#2 (the A/A control), or f. */
    String letter() {
        return switch (kind) {
            case STOCK -> "s";
            case COLUMNAR -> extra() ? "c" + id().substring("columnar".length()) : "c";
            case FLOOR -> "f";
        };
    }

    /** Stock, the default columnar variant, the A/A control, the other extra ones by id, then the floor. */
    @Override
    public int compareTo(Variant other) {
        return Comparator.comparing(Variant::kind).thenComparing(Variant::extra).thenComparing(Variant::id)
                .compare(this, other);
    }

    private static String columnarSource() {
        try {
            FactoryUtil.discoverFactory(Variant.class.getClassLoader(), DynamicTableSourceFactory.class,
                    "kafka-columnar");
            return "kafka-columnar";
        } catch (ValidationException noColumnarSource) {
            return "kafka";
        }
    }
}
