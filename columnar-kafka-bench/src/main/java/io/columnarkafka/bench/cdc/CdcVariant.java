package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.AaControl;
import io.columnarkafka.bench.VariantSpelling;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which connectors a CDC cell reads and writes through, and (columnar) the planner options its session sets: stock
 * Flink's {@code kafka} / {@code upsert-kafka}, or {@code kafka-columnar} / {@code upsert-kafka-columnar} with the
 * columnar planner stage installed. A columnar variant with planner options ({@code
 * columnar:local-group-agg.vectorised=false}, {@link VariantSpelling}) is an extra variant of a same-run A/B, and so
 * is the A/A control {@value AaControl#CONTROL_ID}, the default columnar configuration again under a label of its
 * own, whose ratio to the default one is the run's noise ({@link AaControl}).
 *
 * @param columnar the columnar connectors and planner stage, with or without planner options
 * @param plannerOptions relative key to value, sorted by key; empty for stock, the default columnar variant and the
 *     A/A control
 * @param control the A/A control
 */
record CdcVariant(boolean columnar, SortedMap<String, String> plannerOptions, boolean control)
        implements Comparable<CdcVariant> {
    static final CdcVariant STOCK = new CdcVariant(false, new TreeMap<>(), false);
    static final CdcVariant COLUMNAR = new CdcVariant(true, new TreeMap<>(), false);
    static final CdcVariant CONTROL = new CdcVariant(true, new TreeMap<>(), true);

    CdcVariant {
        plannerOptions = Collections.unmodifiableSortedMap(new TreeMap<>(plannerOptions));
    }

    /**
     * {@code stock}, {@code columnar}, {@value AaControl#CONTROL_ID} or {@code columnar:KEY=VALUE[+KEY=VALUE...]};
     * throws {@link IllegalArgumentException} on any other form, an unknown planner option, a value it does not take
     * or a key set twice.
     */
    static CdcVariant parse(String id) {
        return switch (id) {
            case "stock" -> STOCK;
            case "columnar" -> COLUMNAR;
            case AaControl.CONTROL_ID -> CONTROL;
            default -> new CdcVariant(true, VariantSpelling.plannerOptions(id), false);
        };
    }

    /** The form {@link #parse} reads: the report's and the cell arguments' name of the variant. */
    String id() {
        if (!columnar) {
            return "stock";
        }
        return control ? AaControl.CONTROL_ID : VariantSpelling.id(VariantSpelling.items(plannerOptions));
    }

    /** Planner options or the A/A control: measured against stock and against the default columnar variant. */
    boolean extra() {
        return control || !plannerOptions.isEmpty();
    }

    /** The planner options with their full keys, as the cell's session sets them. */
    Map<String, String> sessionOptions() {
        return VariantSpelling.sessionOptions(plannerOptions);
    }

    /** The source table's connector, and the sink's unless it is an upsert table. */
    String connector() {
        return columnar ? "kafka-columnar" : "kafka";
    }

    String connector(boolean upsert) {
        return (upsert ? "upsert-" : "") + connector();
    }

    /** Stock, the default columnar variant, the A/A control, then the other extra ones by id. */
    @Override
    public int compareTo(CdcVariant other) {
        // columnar#2 sorts before columnar:...: '#' before ':'.
        return Comparator.comparing(CdcVariant::columnar).thenComparing(CdcVariant::extra)
                .thenComparing(CdcVariant::id).compare(this, other);
    }
}
