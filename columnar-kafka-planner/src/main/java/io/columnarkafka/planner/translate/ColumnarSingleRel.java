package io.columnarkafka.planner.translate;

import io.columnarkafka.planner.edge.ArrowProducer;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;

/**
 * A columnar node of one input that emits Arrow batches: it remembers the id of the exec node it was translated into,
 * which an edge after it shares ({@link ArrowProducer}), and needs no watermark of its own.
 */
abstract class ColumnarSingleRel extends SingleRel implements StreamPhysicalRel, ArrowProducer {
    /** The id of the exec node this node was translated into; -1 before. */
    private int execNodeId = -1;

    ColumnarSingleRel(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        super(cluster, traits, input);
    }

    /** This node's exec node, made anew. */
    abstract ExecNode<?> newExecNode();

    @Override
    public final ExecNode<?> translateToExecNode() {
        ExecNode<?> node = newExecNode();
        execNodeId = node.getId();
        return node;
    }

    @Override
    public final int execNodeId() {
        return execNodeId;
    }

    @Override
    public boolean requireWatermark() {
        return false;
    }
}
