package io.columnarkafka.planner.translate;

import java.util.List;
import java.util.Optional;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.transformations.SinkTransformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.streaming.api.transformations.TransformationWithLineage;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.lineage.TableLineageUtils;
import org.apache.flink.table.planner.lineage.TableSinkLineageVertexImpl;
import org.apache.flink.table.planner.lineage.TableSourceLineageVertexImpl;

/**
 * The table lineage Flink's scan and sink nodes give their transformations (2.2.1's {@code
 * CommonExecTableSourceScan} and {@code CommonExecSink}), given by the stage's nodes that replace them, so that a job
 * status listener reading the job's lineage graph sees the same sources, sinks and relations with the stage as
 * without: the table as the dataset, the scan's boundedness, the sink's modify type, and for a {@code KafkaSink} the
 * dataset of the sink itself (the cluster's namespace, the topic), as Flink's sink node takes it from a sink
 * provider's {@code Sink}. Flink's scan node takes none from a {@code DataStreamScanProvider}, Kafka's.
 */
final class TableLineage {
    private TableLineage() {}

    /** Gives {@code source}, a scan's source, the table's source vertex. */
    static void ofScan(Transformation<?> source, ContextResolvedTable table) {
        if (source instanceof SourceTransformation<?, ?, ?> scan) {
            scan.setLineageVertex(new TableSourceLineageVertexImpl(
                    List.of(TableLineageUtils.createTableLineageDataset(table, Optional.empty())),
                    scan.getBoundedness()));
        }
    }

    /** Gives {@code end}, the last transformation of a sink's runtime, the table's sink vertex. */
    static void ofSink(Transformation<?> end, ContextResolvedTable table, ChangelogMode inputChangelogMode) {
        if (end instanceof TransformationWithLineage<?> t) {
            Optional<LineageVertex> sinkVertex = end instanceof SinkTransformation<?, ?> sink
                    ? TableLineageUtils.extractLineageDataset(sink.getSink()) : Optional.empty();
            t.setLineageVertex(new TableSinkLineageVertexImpl(
                    List.of(TableLineageUtils.createTableLineageDataset(table, sinkVertex)),
                    TableLineageUtils.convert(inputChangelogMode)));
        }
    }
}
