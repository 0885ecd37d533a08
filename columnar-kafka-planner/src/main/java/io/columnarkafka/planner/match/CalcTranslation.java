package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/** A Flink Calc as a {@link CalcProgram}: its input row type, projections, output names and condition. */
final class CalcTranslation {
    private CalcTranslation() {}

    static CalcProgram of(Calc calc) throws NotTranslatable {
        return of(calc.getProgram(), calc);
    }

    /** {@code program} as a {@link CalcProgram}, translated under the session of {@code context}. */
    static CalcProgram of(RexProgram program, RelNode context) throws NotTranslatable {
        RexToExpr rexes = rexes(program, context);
        List<Expr> projections = new ArrayList<>();
        for (RexLocalRef projection : program.getProjectList()) {
            projections.add(rexes.translate(projection));
        }
        Expr condition = program.getCondition() == null ? null : rexes.translate(program.getCondition());
        return new CalcProgram(FlinkTypeFactory.toLogicalRowType(program.getInputRowType()), projections,
                program.getOutputRowType().getFieldNames(), condition);
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
