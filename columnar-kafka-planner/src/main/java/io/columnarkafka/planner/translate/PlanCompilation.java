package io.columnarkafka.planner.translate;

/**
 * Whether the plan being optimized is being compiled ({@code COMPILE PLAN}, {@code TableEnvironment#compilePlanSql}).
 *
 * <p>Why: a compiled plan is Flink's exec nodes written as JSON, to be restored later by Flink's registry of node
 * types, which has none of the stage's nodes; a plan compiled with them in it could never be executed. So the stage
 * leaves a plan being compiled to Flink, whose scan and sink nodes still run the {@code kafka-columnar} connectors'
 * columnar decode and encode when the plan is executed. Flink tells its optimizer nothing of the compilation, so the
 * stage looks for {@code PlannerBase#compilePlan} on the calling thread's stack (the planner optimizes on the caller's
 * thread); should a Flink compile from elsewhere, the stage's scan and sink nodes refuse to be translated for a
 * compiled plan ({@link #refuse}), so the plan fails to compile rather than compiling into one that cannot run.
 */
final class PlanCompilation {
    private static final String PLANNER = "org.apache.flink.table.planner.delegation.PlannerBase";
    private static final StackWalker STACK = StackWalker.getInstance();

    private PlanCompilation() {}

    /** True when the calling thread is compiling a plan. */
    static boolean underway() {
        return STACK.walk(frames -> frames.anyMatch(
                frame -> frame.getMethodName().equals("compilePlan") && frame.getClassName().equals(PLANNER)));
    }

    /** Fails the translation of the stage's {@code node} into a compiled plan. */
    static void refuse(boolean compiled, String node) {
        if (compiled) {
            throw new IllegalStateException("columnar-kafka: " + node + " cannot be written to a compiled plan"
                    + " (Flink restores a compiled plan's nodes from its own registry); compile the plan in a table"
                    + " environment without ColumnarSql.install: kafka-columnar tables then decode and encode columnar"
                    + " inside Flink's scan and sink nodes");
        }
    }
}
