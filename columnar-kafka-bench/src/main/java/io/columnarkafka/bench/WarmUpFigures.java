package io.columnarkafka.bench;

import java.util.Properties;

/**
 * A measured job's JIT figures ({@link JvmWarmUp}), a Nexmark cell's or a pipeline run's: the warm-up jobs its JVM
 * ran before it, the share of the last one's wall time the JIT spent compiling, and the JIT's compile time during the
 * measured job.
 *
 * @param jobs warm-up jobs run (0 without a warm-up)
 * @param lastJitShare the last warm-up job's compile time over its wall time, NaN without a warm-up
 * @param measuredJitSeconds compile time (all compiler threads, elapsed) while the measured job ran, NaN if not
 *     measured (recovery cells)
 */
public record WarmUpFigures(int jobs, double lastJitShare, double measuredJitSeconds) {
    public static final WarmUpFigures NONE = new WarmUpFigures(0, Double.NaN, Double.NaN);

    public static WarmUpFigures load(Properties p) {
        return new WarmUpFigures(Integer.parseInt(p.getProperty("jvmWarmUpJobs", "0")),
                Double.parseDouble(p.getProperty("jvmWarmUpLastJitShare", "NaN")),
                Double.parseDouble(p.getProperty("jitSeconds", "NaN")));
    }
}
