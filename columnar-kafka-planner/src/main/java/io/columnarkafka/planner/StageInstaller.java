package io.columnarkafka.planner;

import io.columnarkafka.planner.match.PlanDecision;
import io.columnarkafka.planner.translate.ColumnarStage;
import org.apache.flink.table.api.PlannerConfig;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.planner.calcite.CalciteConfig;
import org.apache.flink.table.planner.calcite.CalciteConfig$;
import org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram;
import org.apache.flink.table.planner.plan.optimize.program.FlinkStreamProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;

/**
 * Appends {@link ColumnarStage} after Flink's physical optimization. Flink 2.2 has no public hook for this;
 * the planner reads a {@link CalciteConfig} from {@link TableConfig#getPlannerConfig()} and, when it names a
 * stream program, runs that program instead of its default. So the program set here is Flink's own
 * ({@link FlinkStreamProgram#buildProgram}, or one already configured) with the stage added last.
 * Loaded only once {@link ColumnarSql} has seen the planner classes.
 */
final class StageInstaller {
    private StageInstaller() {}

    /** The decision of the stage on {@code config} for the plan this thread optimized last. */
    static PlanDecision lastDecision(TableConfig config) {
        ColumnarStage stage = stage(config);
        return stage == null ? null : stage.lastDecision();
    }

    /** The stage installed on {@code config}, or null. */
    private static ColumnarStage stage(TableConfig config) {
        if (!(config.getPlannerConfig() instanceof CalciteConfig calcite) || calcite.getStreamProgram().isEmpty()) {
            return null;
        }
        return calcite.getStreamProgram().get().get(ColumnarStage.NAME).getOrElse(() -> null) instanceof ColumnarStage s
                ? s : null;
    }

    static InstallResult install(TableConfig config) {
        PlannerConfig current = config.getPlannerConfig();
        CalciteConfig calcite = current instanceof CalciteConfig c ? c : CalciteConfig$.MODULE$.DEFAULT();
        FlinkChainedProgram<StreamOptimizeContext> program = calcite.getStreamProgram().isDefined()
                ? calcite.getStreamProgram().get()
                : FlinkStreamProgram.buildProgram(config);
        if (program.get(ColumnarStage.NAME).isDefined()) {
            return new InstallResult(InstallStatus.ALREADY_INSTALLED, "already installed");
        }
        program.addLast(ColumnarStage.NAME, new ColumnarStage());
        config.setPlannerConfig(CalciteConfig$.MODULE$.createBuilder(calcite).replaceStreamProgram(program).build());
        return new InstallResult(InstallStatus.INSTALLED,
                "installed after Flink's physical optimization (stage '" + ColumnarStage.NAME + "')");
    }
}
