package io.columnarkafka.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Properties;

/**
 * How a benchmark's JVM runs its job, unmeasured, before the measured job ({@code --jvm-warm-up} of {@code
 * bin/bench-nexmark}, {@code bin/bench-cdc} and {@code bin/bench-pipeline}).
 *
 * <p>{@link #ONCE} runs it one time. On the 2-core machine that is not enough for the JIT: its single C2 thread stays
 * busy for about the first minute of a cell JVM's life in both variants (docs/nexmark.md, "What the JIT does in a warm
 * JVM's measured job"), so a measured job that starts sooner runs while Kafka's per-request code is still being
 * compiled, and a faster job (a shorter warm-up) starts sooner. {@link #SETTLED} repeats the job until one run of it
 * spent at most {@link #SETTLED_JIT_SHARE} of its wall time compiling, as a TaskManager that has run for minutes has:
 * each cell then starts its measured job with the JIT as quiet as the job lets it be, whatever its speed.
 */
public enum JvmWarmUp {
    OFF, ONCE, SETTLED;

    /** The largest share of a warm-up job's wall time spent compiling (all compiler threads) at which SETTLED stops. */
    public static final double SETTLED_JIT_SHARE = 0.15;
    /** SETTLED stops after this many warm-up jobs even if the JIT is still busier than that (the report says so). */
    public static final int SETTLED_MAX_JOBS = 8;

    /**
     * The warm-up job's own name for what the measured job names {@code name} (its result topic, transactional-id
     * prefix, consumer group, checkpoint directory), so that the measured job's output holds none of the warm-up's.
     */
    public static String own(String name) {
        return name + "-jvm-warm-up";
    }

    public static JvmWarmUp parse(String value) {
        return switch (value) {
            case "off" -> OFF;
            case "on", "once" -> ONCE;
            case "settled" -> SETTLED;
            default -> throw new IllegalArgumentException("--jvm-warm-up is off, on (once) or settled");
        };
    }

    public String flag() {
        return switch (this) {
            case OFF -> "off";
            case ONCE -> "on";
            case SETTLED -> "settled";
        };
    }

    /** Whether a warm-up job runs after {@code jobsRun} of them, the last of which compiled for {@code jitShare}. */
    public boolean another(int jobsRun, double jitShare) {
        return switch (this) {
            case OFF -> false;
            case ONCE -> jobsRun == 0;
            case SETTLED -> jobsRun == 0 || (jitShare > SETTLED_JIT_SHARE && jobsRun < SETTLED_MAX_JOBS);
        };
    }

    /** One unmeasured run of the benchmark's job, to its end. */
    @FunctionalInterface
    public interface Job {
        void run() throws Exception;
    }

    /**
     * Runs {@code job} as often as this mode says and stores in {@code result} how many runs there were ({@code
     * jvmWarmUpJobs}), their wall seconds ({@code jvmWarmUpSeconds}) and the share of the last one's wall time the JIT
     * spent compiling ({@code jvmWarmUpLastJitShare}); nothing when no run is due.
     */
    public void run(Job job, Properties result) throws Exception {
        int jobs = 0;
        double jitShare = Double.NaN;
        long start = System.nanoTime();
        while (another(jobs, jitShare)) {
            long jobStart = System.nanoTime();
            double compileStart = compileSeconds();
            job.run();
            jitShare = (compileSeconds() - compileStart) / ((System.nanoTime() - jobStart) / 1e9);
            jobs++;
        }
        if (jobs > 0) {
            result.setProperty("jvmWarmUpJobs", Integer.toString(jobs));
            result.setProperty("jvmWarmUpSeconds", Double.toString((System.nanoTime() - start) / 1e9));
            result.setProperty("jvmWarmUpLastJitShare", Double.toString(jitShare));
        }
    }

    /**
     * The JIT's compile time so far, all compiler threads, in seconds (HotSpot's elapsed time per compilation, summed:
     * on a busy machine above the compiler threads' CPU time).
     */
    public static double compileSeconds() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported()
                ? jit.getTotalCompilationTime() / 1e3 : Double.NaN;
    }
}
