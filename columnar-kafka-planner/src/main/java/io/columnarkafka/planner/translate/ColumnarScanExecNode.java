package io.columnarkafka.planner.translate;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.table.ColumnarTables;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecTableSourceScan;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/** The columnar source of an admitted {@code kafka-columnar} scan, emitting {@link ArrowBatch}es. */
final class ColumnarScanExecNode extends ExecNodeBase<ArrowBatch>
        implements StreamExecNode<ArrowBatch>, SingleTransformationTranslator<ArrowBatch> {
    private final DynamicTableSource source;
    private final ContextResolvedTable table;
    private final RowType rowType;
    /** The watermark expression evaluated on the vectors, or null (no watermark, or the row probe). */
    private final Expr columnarWatermark;

    ColumnarScanExecNode(ReadableConfig config, DynamicTableSource source, ContextResolvedTable table,
            RowType rowType, String description, Expr columnarWatermark) {
        super(ExecNodeContext.newNodeId(), new ExecNodeContext("stream-exec-columnar-scan_1"), config, List.of(),
                rowType, description);
        this.source = source;
        this.table = table;
        this.rowType = rowType;
        this.columnarWatermark = columnarWatermark;
    }

    @Override
    protected Transformation<ArrowBatch> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<ArrowBatch> source = ColumnarTables.arrowScan(this.source, planner.getExecEnv(),
                InternalTypeInfo.of(rowType), createTransformationName(config), columnarWatermark).getTransformation();
        source.setDescription(createTransformationDescription(config));
        TableLineage.ofScan(source, table);
        if (config.shouldSetUid()) {
            // Flink's scan node's uid: with generated uids a savepoint's KafkaSource state (splits, enumerator) carries
            // over between Flink's kafka scan and this one
            source.setUid(createTransformationUid(CommonExecTableSourceScan.SOURCE_TRANSFORMATION, config));
        }
        return source;
    }
}
