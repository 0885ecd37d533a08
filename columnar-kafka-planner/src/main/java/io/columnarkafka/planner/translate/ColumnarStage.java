package io.columnarkafka.planner.translate;

import io.columnarkafka.planner.match.PlanDecision;
import io.columnarkafka.planner.match.PlanMatcher;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.table.planner.plan.optimize.program.FlinkOptimizeProgram;
import org.apache.flink.table.planner.plan.optimize.program.StreamOptimizeContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stage appended after Flink's physical optimization: the scans of a table united as Flink's source reuse
 * would unite them ({@link ScanUnion}), one decision for that plan ({@link PlanMatcher}), logged, then the plan
 * it describes ({@link PlanTranslator}). A plan with no columnar node is returned as it came, as is a plan being
 * compiled ({@link PlanCompilation}).
 */
public final class ColumnarStage implements FlinkOptimizeProgram<StreamOptimizeContext> {
    /** The stage's name in Flink's chained stream program. */
    public static final String NAME = "columnar_kafka";

    private static final Logger LOG = LoggerFactory.getLogger(ColumnarStage.class);

    /** The decision for the plan optimized last on this thread (the planner optimizes on the caller's thread). */
    private final ThreadLocal<PlanDecision> lastDecision = new ThreadLocal<>();

    @Override
    public RelNode optimize(RelNode root, StreamOptimizeContext context) {
        if (PlanCompilation.underway()) {
            lastDecision.remove();
            LOG.info("columnar-kafka: a plan being compiled is left to Flink (a compiled plan holds Flink's nodes)");
            return root;
        }
        RelNode united = ScanUnion.apply(root);
        PlanDecision decision = PlanMatcher.decide(united);
        lastDecision.set(decision);
        LOG.info("columnar-kafka plan decision:\n{}", decision.describe());
        return decision.anyColumnar() ? PlanTranslator.apply(united, decision) : root;
    }

    /** The decision for the plan this thread optimized last, or null. */
    public PlanDecision lastDecision() {
        return lastDecision.get();
    }
}
