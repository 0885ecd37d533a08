package io.columnarkafka.planner.match;

import io.columnarkafka.flink.expand.ExpandSpec;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalExpand;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The {@link ExpandSpec} of a Flink {@code Expand} the columnar expand copies exactly, or {@link NotTranslatable}
 * naming what it does not. Flink 2.2.1's {@code ExpandCodeGenerator} evaluates each projection's expressions per input
 * row and emits the projections in order; the columnar expand emits the same rows in the same order, for projections
 * whose every expression is one of those Flink's planner builds for an Expand ({@code ExpandUtil.
 * createExpandProjects}), into columns of types with an Arrow layout: an input field, a NULL literal, an INT or BIGINT literal
 * (the expand id {@code $e}); and each output column as {@link ExpandSpec} takes it (one input field, or constants).
 * Over a changelog the batches' row-kind column is copied too, so each copy keeps its input row's kind, as Flink's.
 */
public final class ExpandTranslation {
    private ExpandTranslation() {}

    /** The spec of an Expand {@link PlanMatcher} decided columnar (which it translated then). */
    public static ExpandSpec admitted(StreamPhysicalExpand expand) {
        try {
            return of(expand);
        } catch (NotTranslatable e) {
            throw new IllegalStateException("decided columnar, but " + e.getMessage(), e);
        }
    }

    static ExpandSpec of(StreamPhysicalExpand expand) throws NotTranslatable {
        RowType input = FlinkTypeFactory.toLogicalRowType(expand.getInput().getRowType());
        RowType output = FlinkTypeFactory.toLogicalRowType(expand.getRowType());
        for (RowType.RowField field : output.getFields()) {
            if (!ArrowLayout.supports(field.getType())) {
                throw new NotTranslatable(field.getName() + " of type " + field.getType().asSummaryString()
                        + " has no Arrow layout");
            }
        }
        // over a changelog each copy keeps its input row's kind (Flink's ExpandCodeGenerator with retainHeader): the
        // batches' row-kind column, after the fields, is one more column every projection copies
        boolean changelog = RowKindBatches.carried(expand.getInput());
        List<List<ExpandSpec.Value>> projections = new ArrayList<>();
        for (List<RexNode> projection : expand.projects()) {
            List<ExpandSpec.Value> values = new ArrayList<>(projection.size() + 1);
            for (int c = 0; c < projection.size(); c++) {
                values.add(value(projection.get(c), output.getFieldNames().get(c)));
            }
            if (changelog) {
                values.add(new ExpandSpec.InputColumn(input.getFieldCount()));
            }
            projections.add(values);
        }
        if (changelog) {
            input = RowKindBatches.withKinds(input);
            output = RowKindBatches.withKinds(output);
        }
        try {
            return new ExpandSpec(input, output, projections);
        } catch (IllegalArgumentException e) {
            throw new NotTranslatable(e.getMessage());
        }
    }

    private static ExpandSpec.Value value(RexNode rex, String column) throws NotTranslatable {
        if (rex instanceof RexInputRef ref) {
            return new ExpandSpec.InputColumn(ref.getIndex());
        }
        if (rex instanceof RexLiteral literal) {
            if (literal.isNull()) {
                return new ExpandSpec.Null();
            }
            LogicalTypeRoot root = FlinkTypeFactory.toLogicalType(literal.getType()).getTypeRoot();
            if (root == LogicalTypeRoot.INTEGER || root == LogicalTypeRoot.BIGINT) {
                return new ExpandSpec.Constant(literal.getValueAs(Long.class));
            }
        }
        throw new NotTranslatable(column + ": " + rex + " (only input fields, NULL, and INT or BIGINT literals)");
    }
}
