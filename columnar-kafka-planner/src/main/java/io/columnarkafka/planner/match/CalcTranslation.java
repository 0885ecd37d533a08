package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.format.arrow.RowKindVector;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.utils.ShortcutUtils;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Flink Calc as a {@link CalcProgram}: its input row type, projections, output names and condition. Over batches of
 * a changelog ({@link RowKindBatches}) the row-kind column is one more input column and one more projection, so each
 * row that passes keeps its kind, as Flink's Calc gives its output row the input row's kind.
 */
final class CalcTranslation {
    private CalcTranslation() {}

    static CalcProgram of(Calc calc) throws NotTranslatable {
        return of(calc.getProgram(), calc);
    }

    /**
     * {@code program}, over the input of {@code calc} (whose batches may carry row kinds), as a {@link CalcProgram},
     * translated under the session of {@code calc}.
     */
    static CalcProgram of(RexProgram program, Calc calc) throws NotTranslatable {
        RexToExpr rexes = rexes(program, calc);
        RowType input = FlinkTypeFactory.toLogicalRowType(program.getInputRowType());
        List<Expr> projections = new ArrayList<>();
        for (RexLocalRef projection : program.getProjectList()) {
            projections.add(rexes.translate(projection));
        }
        List<String> names = new ArrayList<>(program.getOutputRowType().getFieldNames());
        if (RowKindBatches.carried(calc.getInput())) {
            input = RowKindBatches.withKinds(input);
            int kinds = input.getFieldCount() - 1;
            projections.add(new Expr.Column(kinds, input.getTypeAt(kinds)));
            names.add(RowKindVector.columnBeside(names));
        }
        Expr condition = program.getCondition() == null ? null : rexes.translate(program.getCondition());
        return new CalcProgram(input, projections, names, condition);
    }

    /** The translator of {@code program}'s expressions, under the session of {@code context}. */
    static RexToExpr rexes(RexProgram program, RelNode context) {
        // with the legacy cast behaviour a failing CAST gives null instead of failing the job
        boolean legacyCast = ShortcutUtils.unwrapTableConfig(context)
                .get(ExecutionConfigOptions.TABLE_EXEC_LEGACY_CAST_BEHAVIOUR).isEnabled();
        return new RexToExpr(program, context.getCluster().getRexBuilder(), legacyCast,
                FlinkCodeCalls.of(program, context));
    }
}
