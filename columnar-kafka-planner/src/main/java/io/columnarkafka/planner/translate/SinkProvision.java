package io.columnarkafka.planner.translate;

import java.util.function.Supplier;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.util.TemporaryClassLoaderContext;

/**
 * What Flink's sink node does around a sink's runtime (2.2.1's {@code CommonExecSink.applySinkProvider} and the
 * lineage after it), done by the stage's two sink nodes: the runtime built with the session's class loader (the SQL
 * client's {@code ADD JAR} or {@code -j} jars) as the context class loader, where Kafka's client resolves the classes
 * its configuration names; then the table's sink lineage on its last transformation ({@link TableLineage}).
 */
final class SinkProvision {
    private SinkProvision() {}

    @SuppressWarnings("unchecked")
    static Transformation<Object> apply(PlannerBase planner, ContextResolvedTable table,
            ChangelogMode inputChangelogMode, Supplier<DataStreamSink<?>> runtime) {
        Transformation<Object> end;
        try (TemporaryClassLoaderContext ignored =
                TemporaryClassLoaderContext.of(planner.getFlinkContext().getClassLoader())) {
            end = (Transformation<Object>) runtime.get().getTransformation();
        }
        TableLineage.ofSink(end, table, inputChangelogMode);
        return end;
    }
}
