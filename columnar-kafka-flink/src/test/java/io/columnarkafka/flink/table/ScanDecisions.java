package io.columnarkafka.flink.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The scan decision for a table created in a table environment, as the planner gets it: the table's source
 * built by its connector's factory from the resolved table.
 */
final class ScanDecisions {
    private ScanDecisions() {}

    static Admission of(TableEnvironment tEnv, String table) {
        return reading(tEnv, table, null, null);
    }

    /**
     * The decision for the scan of {@code table} in a plan ({@code explain}, the output of {@code explainSql}): the
     * columns and metadata keys its optimized scan shows ({@code project=[...]}, {@code metadata=[...]}) pushed
     * into the table's source.
     */
    static Admission planned(TableEnvironment tEnv, String table, String explain) {
        String optimized = explain.substring(explain.indexOf("== Optimized Physical Plan =="));
        Matcher scan = Pattern.compile("TableSourceScan\\(table=\\[\\[[^\\]]*, " + Pattern.quote(table)
                + "(, [^\\n]*?)?\\]\\], fields=").matcher(optimized);
        if (!scan.find()) {
            throw new IllegalArgumentException("no scan of " + table + " in " + optimized);
        }
        String pushed = scan.group(1) == null ? "" : scan.group(1);
        return reading(tEnv, table, list(pushed, "project"), Objects.requireNonNullElse(list(pushed, "metadata"),
                List.of()));
    }

    /** The names of {@code <ability>=[a, b]} in a scan's digest, or null when it has none. */
    private static List<String> list(String digest, String ability) {
        Matcher names = Pattern.compile(ability + "=\\[([^\\]]*)\\]").matcher(digest);
        return !names.find() ? null : names.group(1).isEmpty() ? List.of() : List.of(names.group(1).split(", "));
    }

    /**
     * The decision for a query reading the physical {@code columns} and the {@code metadata} keys of the table, in
     * that order, pushed into its source as the planner pushes them ({@code applyProjection}, {@code
     * applyReadableMetadata}); null for either: nothing pushed (the whole table).
     */
    static Admission reading(TableEnvironment tEnv, String table, List<String> columns, List<String> metadata) {
        DynamicTableSource source = source(tEnv, table);
        if (source instanceof ColumnarKafkaDynamicSource columnar) {
            if (columns != null) {
                int[][] projection = new int[columns.size()][];
                for (int i = 0; i < projection.length; i++) {
                    projection[i] = new int[] {columnar.shape().physicalType().getFieldIndex(columns.get(i))};
                }
                ((SupportsProjectionPushDown) columnar).applyProjection(projection, null);
            }
            if (metadata != null) {
                columnar.applyReadableMetadata(metadata, null);
            }
            return columnar.admission();
        }
        return ((FallbackKafkaSource) source).admission();
    }

    /** The source of {@code table}, built by its connector's factory from the resolved table. */
    static DynamicTableSource source(TableEnvironment tEnv, String table) {
        String connector = resolved(tEnv, table).getOptions().get("connector");
        return create(tEnv, table, connector.equals(UpsertKafkaColumnarTableFactory.IDENTIFIER)
                ? new UpsertKafkaColumnarTableFactory() : new KafkaColumnarTableFactory());
    }

    /** The source Flink's own {@code kafka} factory builds for {@code table} (a {@code kafka-columnar} table). */
    static DynamicTableSource flinkSource(TableEnvironment tEnv, String table) {
        return create(tEnv, table, new KafkaDynamicTableFactory());
    }

    private static DynamicTableSource create(TableEnvironment tEnv, String table, DynamicTableSourceFactory factory) {
        ObjectIdentifier id = ObjectIdentifier.of(tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase(), table);
        return factory.createDynamicTableSource(new FactoryUtil.DefaultDynamicTableContext(
                id, resolved(tEnv, table), Map.of(), new Configuration(), ScanDecisions.class.getClassLoader(), false));
    }

    private static ResolvedCatalogTable resolved(TableEnvironment tEnv, String table) {
        ObjectIdentifier id = ObjectIdentifier.of(tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase(), table);
        return (ResolvedCatalogTable) ((TableEnvironmentInternal) tEnv).getCatalogManager().getTableOrError(id)
                .getResolvedTable();
    }
}
