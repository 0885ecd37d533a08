package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalDropUpdateBefore;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.types.RowKind;

/**
 * Flink's {@code DropUpdateBefore} (a filter passing every row but an UPDATE_BEFORE, planned where a changelog meets a
 * consumer that takes updates without their before rows, such as an upsert table) as a columnar calc program over its
 * input's batches, whose last column holds each row's kind ({@link RowKindBatches}): a condition on that column, every
 * column projected as it is.
 */
final class DropUpdateBeforeTranslation {
    private DropUpdateBeforeTranslation() {}

    static CalcProgram of(StreamPhysicalDropUpdateBefore drop) {
        RowType input = RowKindBatches.withKinds(FlinkTypeFactory.toLogicalRowType(drop.getInput().getRowType()));
        List<Expr> projections = new ArrayList<>();
        for (int i = 0; i < input.getFieldCount(); i++) {
            projections.add(new Expr.Column(i, input.getTypeAt(i)));
        }
        int kinds = input.getFieldCount() - 1;
        Expr notUpdateBefore = Expr.Call.of(Op.NOT_EQUALS, new BooleanType(input.getTypeAt(kinds).isNullable()),
                projections.get(kinds),
                new Expr.Literal(RowKind.UPDATE_BEFORE.toByteValue(), new TinyIntType(false)));
        return new CalcProgram(input, projections, input.getFieldNames(), notUpdateBefore);
    }
}
