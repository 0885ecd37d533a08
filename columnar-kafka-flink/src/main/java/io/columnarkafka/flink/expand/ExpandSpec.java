package io.columnarkafka.flink.expand;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * What a Flink {@code Expand} node computes, in the terms the columnar expand copies: for each input row, one output
 * row per projection, in order; each projection gives every output column an input column's value, NULL, or an
 * integer constant (the expand id {@code $e}). Flink's planner builds such projections ({@code
 * ExpandUtil.createExpandProjects}: an input field, a typed NULL literal for a grouping field the grouping set leaves
 * out, the BIGINT expand id); the planner stage translates a node's projections into this only when they are all of
 * these kinds.
 *
 * @param input the input row type
 * @param output the output row type (Flink's node's)
 * @param projections per projection, the value of each output column
 */
public record ExpandSpec(RowType input, RowType output, List<List<Value>> projections) implements Serializable {

    /** The value a projection gives one output column. */
    public sealed interface Value extends Serializable permits InputColumn, Null, Constant {}

    /** The input row's column {@code index}, null where it is null. */
    public record InputColumn(int index) implements Value {}

    /** NULL. */
    public record Null() implements Value {}

    /** An INT or BIGINT constant. */
    public record Constant(long value) implements Value {}

    public ExpandSpec {
        projections = projections.stream().map(List::copyOf).toList();
        if (projections.isEmpty()) {
            throw new IllegalArgumentException("an Expand has at least one projection");
        }
        for (List<Value> projection : projections) {
            if (projection.size() != output.getFieldCount()) {
                throw new IllegalArgumentException("a projection of " + projection.size() + " values for "
                        + output.getFieldCount() + " output columns");
            }
        }
        for (int c = 0; c < output.getFieldCount(); c++) {
            Integer source = null;
            for (List<Value> projection : projections) {
                Value value = projection.get(c);
                if (value instanceof InputColumn column) {
                    if (column.index() < 0 || column.index() >= input.getFieldCount()) {
                        throw new IllegalArgumentException("input column " + column.index() + " of "
                                + input.asSummaryString());
                    }
                    if (source != null && source != column.index()) {
                        throw new IllegalArgumentException(output.getFieldNames().get(c) + ": input fields $" + source
                                + " and $" + column.index() + " in one column");
                    }
                    source = column.index();
                }
            }
            boolean constants = false;
            for (List<Value> projection : projections) {
                constants |= projection.get(c) instanceof Constant;
            }
            LogicalTypeRoot root = output.getTypeAt(c).getTypeRoot();
            if (constants && (source != null || (root != LogicalTypeRoot.INTEGER && root != LogicalTypeRoot.BIGINT))) {
                throw new IllegalArgumentException(output.getFieldNames().get(c) + ": constants beside input values,"
                        + " or in a column of type " + output.getTypeAt(c).asSummaryString() + " (only INT, BIGINT)");
            }
        }
    }

    /** The input column output column {@code c} copies in some projection, or -1 when none does. */
    public int sourceOf(int c) {
        for (List<Value> projection : projections) {
            if (projection.get(c) instanceof InputColumn column) {
                return column.index();
            }
        }
        return -1;
    }
}
