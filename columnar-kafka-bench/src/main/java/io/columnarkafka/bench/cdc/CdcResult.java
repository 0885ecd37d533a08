package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.WarmUpFigures;
import io.columnarkafka.bench.nexmark.OutputDigest;
import java.util.Properties;

/**
 * One CDC cell's measurements (from its JVM's result file) and its verdict.
 *
 * @param planPath the columnar nodes and edges of its optimized plan ({@link io.columnarkafka.bench.ColumnarPlanPath})
 * @param verdict OK, or FAIL with the reason (output differing from stock's, a columnar cell's plan not the path its
 *     query needs, the job failing)
 * @param warmUp the JVM warm-up jobs the cell's JVM ran before the measured one, and the JIT's compile time in it
 * @param plannerOptionsInPlan what its plan showed of its variant's planner options ({@link
 *     io.columnarkafka.bench.PlannerOptionsInPlan}); empty for a variant without any
 */
record CdcResult(CdcCell cell, double jobSeconds, double cpuSeconds, String planPath, int columnarNodes, int edges,
                 OutputDigest output, String verdict, WarmUpFigures warmUp, String plannerOptionsInPlan) {

    static CdcResult of(CdcCell cell, Properties measured, OutputDigest output, String verdict) {
        return new CdcResult(cell, Double.parseDouble(measured.getProperty("jobSeconds")),
                Double.parseDouble(measured.getProperty("cpuSeconds")), measured.getProperty("planPath"),
                Integer.parseInt(measured.getProperty("columnarNodes")), Integer.parseInt(measured.getProperty("edges")),
                output, verdict, WarmUpFigures.load(measured), measured.getProperty("plannerOptionsInPlan", ""));
    }

    static CdcResult failed(CdcCell cell, String reason) {
        return new CdcResult(cell, Double.NaN, Double.NaN, "", -1, -1, new OutputDigest(0, ""), "FAIL: " + reason,
                WarmUpFigures.NONE, "");
    }

    boolean ok() {
        return verdict.equals("OK");
    }

    /** The job ran to its end, so its figures exist (whatever its verdict). */
    boolean measured() {
        return !Double.isNaN(jobSeconds);
    }

    int round() {
        return cell.round();
    }

    /** Input records per second of job time. */
    double eventsPerSecond() {
        return cell.records() / jobSeconds;
    }

    /** The Flink JVM's CPU time per input record, in nanoseconds. */
    double cpuNanosPerEvent() {
        return cpuSeconds * 1e9 / cell.records();
    }

    /** The verdict's first line (a failed cell's carries the tail of its log). */
    String verdictHeadline() {
        int end = verdict.indexOf('\n');
        return end < 0 ? verdict : verdict.substring(0, end);
    }
}
