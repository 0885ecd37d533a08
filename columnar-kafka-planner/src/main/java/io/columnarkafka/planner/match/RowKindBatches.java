package io.columnarkafka.planner.match;

import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.arrow.RowKindVector;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalRel;
import org.apache.flink.table.planner.plan.utils.ChangelogPlanUtils;
import org.apache.flink.table.types.logical.RowType;

/**
 * Where the stage's Arrow batches carry row kinds. Arrow has no row kind, so the batches of a changelog (a changelog
 * value format's scan, and the columnar nodes over it) carry each row's kind in a column after the node's fields
 * ({@code RowKindVector}): a columnar Calc projects it along, the edge to rows sets each row's kind from it and a
 * changelog format's encoder writes by it. Every other batch holds inserts only.
 */
public final class RowKindBatches {
    private RowKindBatches() {}

    /** Whether the batches of {@code node} (one of Flink's nodes, decided or replaced) carry the row-kind column. */
    public static boolean carried(RelNode node) {
        return !ChangelogPlanUtils.isInsertOnly((StreamPhysicalRel) node);
    }

    /** The columns of a changelog's batches whose fields are {@code fields}: those, then the row-kind column. */
    static RowType withKinds(RowType fields) {
        return RowDataArrowWriter.withRowKindColumn(fields, RowKindVector.columnBeside(fields.getFieldNames()));
    }
}
