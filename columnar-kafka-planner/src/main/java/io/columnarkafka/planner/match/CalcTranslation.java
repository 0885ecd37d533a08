package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import java.util.ArrayList;
import java.util.List;
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
        RexProgram program = calc.getProgram();
        // with the legacy cast behaviour a failing CAST gives null instead of failing the job
        boolean legacyCast = ShortcutUtils.unwrapTableConfig(calc)
                .get(ExecutionConfigOptions.TABLE_EXEC_LEGACY_CAST_BEHAVIOUR).isEnabled();
        RexToExpr rexes = new RexToExpr(program, calc.getCluster().getRexBuilder(), legacyCast);
        List<Expr> projections = new ArrayList<>();
        for (RexLocalRef projection : program.getProjectList()) {
            projections.add(rexes.translate(projection));
        }
        Expr condition = program.getCondition() == null ? null : rexes.translate(program.getCondition());
        return new CalcProgram(FlinkTypeFactory.toLogicalRowType(program.getInputRowType()), projections,
                program.getOutputRowType().getFieldNames(), condition);
    }
}
