package io.columnarkafka.planner;

import io.columnarkafka.planner.match.PlanDecision;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one entry point: {@link #install(TableEnvironment)} appends the columnar stage to Flink's stream
 * optimizer of a table environment, so {@code kafka-columnar} scans, supported Calcs and {@code
 * kafka-columnar} sinks run on Arrow batches, and everything else on Flink's own operators.
 *
 * <p>The stage needs Flink's planner classes visible to the application ({@code flink-table-planner_2.12}
 * in {@code lib/}, swapped in from {@code opt/}). With Flink's default {@code flink-table-planner-loader}
 * they live in a class loader of their own; then {@code install} logs why, returns {@link
 * InstallStatus#PLANNER_NOT_VISIBLE} and leaves the environment as it was: plain Flink runs the queries.
 * This class names no planner class itself, so it loads whichever planner jar is deployed.
 */
public final class ColumnarSql {
    private static final Logger LOG = LoggerFactory.getLogger(ColumnarSql.class);

    /** A class of Flink's planner that the loader hides and the swapped-in planner jar shows. */
    static final String PLANNER_CLASS = "org.apache.flink.table.planner.delegation.PlannerBase";

    private ColumnarSql() {}

    /**
     * Appends the columnar stage to {@code tableEnvironment}'s stream optimizer. Call it before the first
     * query is planned; calling it again changes nothing.
     *
     * @return what happened, with a message that says why when nothing was installed
     */
    public static InstallResult install(TableEnvironment tableEnvironment) {
        InstallResult result = tryInstall(tableEnvironment);
        log(result);
        return result;
    }

    private static void log(InstallResult result) {
        if (result.installed()) {
            LOG.info("columnar-kafka planner stage: {}", result.message());
        } else {
            LOG.warn("columnar-kafka planner stage not installed, plain Flink runs the queries: {}",
                    result.message());
        }
    }

    /**
     * Appends the columnar stage to the stream optimizer of the session whose configuration is {@code
     * tableConfig}; for sessions that cannot call {@link #install(TableEnvironment)} (the SQL client: the
     * {@code kafka-columnar} factories call this when {@code columnar-kafka.planner.enabled} is set).
     */
    public static InstallResult install(TableConfig tableConfig) {
        InstallResult result;
        if (visiblePlanner(ColumnarSql.class.getClassLoader()) == null) {
            result = new InstallResult(InstallStatus.PLANNER_NOT_VISIBLE, PLANNER_HIDDEN);
        } else if (tableConfig.get(ExecutionOptions.RUNTIME_MODE) != RuntimeExecutionMode.STREAMING) {
            result = new InstallResult(InstallStatus.NOT_STREAMING, "the stage is for streaming mode only");
        } else {
            result = StageInstaller.install(tableConfig);
        }
        log(result);
        return result;
    }

    /** Flink's planner base class as {@code loader} sees it, or null when the planner loader hides it. */
    static Class<?> visiblePlanner(ClassLoader loader) {
        try {
            return Class.forName(PLANNER_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    static final String PLANNER_HIDDEN = "Flink's planner classes are not visible (" + PLANNER_CLASS
            + " not found): flink-table-planner-loader hides them; put opt/flink-table-planner_2.12-2.2.1.jar in"
            + " lib/ in place of lib/flink-table-planner-loader-2.2.1.jar (docs/planner.md)";

    /**
     * {@link TableEnvironment#explainSql} of {@code statement} followed by the stage's decision for every node
     * of its plan, columnar or not and why ({@code == Columnar Decision ==}). Installs the stage first.
     */
    public static String explain(TableEnvironment tableEnvironment, String statement) {
        InstallResult installed = install(tableEnvironment);
        String plan = tableEnvironment.explainSql(statement);
        if (!installed.installed()) {
            return plan + "\n== Columnar Decision ==\nnot installed: " + installed.message() + "\n";
        }
        PlanDecision decision = lastDecision(tableEnvironment);
        return plan + "\n== Columnar Decision ==\n"
                + (decision == null ? "no plan decided yet" : decision.describe()) + "\n";
    }

    /**
     * The stage's decision for the plan it optimized last on this thread for {@code tableEnvironment} (e.g. by
     * {@link #explain}), or null when none was (or the stage is not installed there).
     */
    public static PlanDecision lastDecision(TableEnvironment tableEnvironment) {
        return StageInstaller.lastDecision(((TableEnvironmentImpl) tableEnvironment).getConfig());
    }

    private static InstallResult tryInstall(TableEnvironment tableEnvironment) {
        Class<?> plannerBase = visiblePlanner(ColumnarSql.class.getClassLoader());
        if (plannerBase == null) {
            return new InstallResult(InstallStatus.PLANNER_NOT_VISIBLE, PLANNER_HIDDEN);
        }
        if (!(tableEnvironment instanceof TableEnvironmentImpl impl)
                || !plannerBase.isInstance(impl.getPlanner())) {
            Object planner = tableEnvironment instanceof TableEnvironmentImpl impl ? impl.getPlanner() : null;
            return new InstallResult(InstallStatus.PLANNER_NOT_VISIBLE, "the table environment's planner ("
                    + (planner == null ? tableEnvironment.getClass().getName() : planner.getClass().getName()
                            + " from " + planner.getClass().getClassLoader())
                    + ") is not the visible " + PLANNER_CLASS
                    + ": is flink-table-planner-loader on the classpath beside flink-table-planner_2.12?");
        }
        if (impl.getConfig().get(ExecutionOptions.RUNTIME_MODE) != RuntimeExecutionMode.STREAMING) {
            return new InstallResult(InstallStatus.NOT_STREAMING, "the stage is for streaming mode only");
        }
        return StageInstaller.install(impl.getConfig());
    }
}
