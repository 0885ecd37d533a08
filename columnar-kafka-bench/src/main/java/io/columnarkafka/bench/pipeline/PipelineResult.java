package io.columnarkafka.bench.pipeline;

import io.columnarkafka.bench.SteadyFigures;
import io.columnarkafka.bench.WarmUpFigures;
import java.util.Locale;
import java.util.Properties;

/** One run: its variant and round, its measures, and whether its output verified. */
final class PipelineResult {
    final PipelineVariant variant;
    final int round;
    final double wallSeconds;
    final double cpuSeconds;
    /** The steady-state rates ({@link SteadyFigures#NONE} for a failed run). */
    final SteadyFigures steady;
    /** CPU seconds by thread group ({@code ThreadCpu}), or null when not measured. */
    final String cpuByThread;
    /** The warm-up jobs the run's JVM ran before the measured one and the JIT's compile time during it. */
    final WarmUpFigures warmUp;
    private String failure;

    private PipelineResult(PipelineVariant variant, int round, double wallSeconds, double cpuSeconds,
                           SteadyFigures steady, String cpuByThread, WarmUpFigures warmUp,
                           String failure) {
        this.variant = variant;
        this.round = round;
        this.wallSeconds = wallSeconds;
        this.cpuSeconds = cpuSeconds;
        this.steady = steady;
        this.cpuByThread = cpuByThread;
        this.warmUp = warmUp;
        this.failure = failure;
    }

    static PipelineResult of(PipelineVariant variant, int round, Properties measured) {
        String leak = measured.getProperty("arrowBytesLeft", "0");
        return new PipelineResult(variant, round, Double.parseDouble(measured.getProperty("wallSeconds")),
                Double.parseDouble(measured.getProperty("cpuSeconds")), SteadyFigures.load(measured),
                measured.getProperty("cpuByThread"),
                WarmUpFigures.load(measured),
                "0".equals(leak) ? null : leak + " Arrow bytes left allocated");
    }

    static PipelineResult failed(PipelineVariant variant, int round, String why) {
        return new PipelineResult(variant, round, Double.NaN, Double.NaN, SteadyFigures.NONE, null, WarmUpFigures.NONE,
                why);
    }

    /** Records the read_committed check of the run's output topic; a failed check makes the run a FAIL. */
    void verify(boolean exactlyOnce, String verdict) {
        if (failure == null && !exactlyOnce) {
            failure = "read_committed: " + verdict;
        }
    }

    boolean passed() {
        return failure == null;
    }

    String failure() {
        return failure;
    }

    double recordsPerSecond(int records) {
        return records / wallSeconds;
    }

    /** Wall time − records / steady rate: what the run's time holds beyond steady processing. */
    double fixedSeconds(int records) {
        return steady.fixedSeconds(wallSeconds, records);
    }

    double cpuMicrosPerRecord(int records) {
        return cpuSeconds * 1e6 / records;
    }

    String line(int records) {
        return passed()
                ? String.format(Locale.ROOT, "%s round %d: %.2f s, %,.0f records/s, steady %,.0f records/s (limited by"
                                + " %s), %.2f µs CPU/record, OK", variant, round, wallSeconds,
                        recordsPerSecond(records), steady.eventsPerSecond(), steady.limitedBy(),
                        cpuMicrosPerRecord(records))
                        + (warmUp.jobs() == 0 ? "" : String.format(Locale.ROOT, "; JIT %.2f s in the job, after %d"
                                + " warm-up run(s)", warmUp.measuredJitSeconds(), warmUp.jobs()))
                        + (cpuByThread == null ? "" : "\n    CPU s by thread group: " + cpuByThread)
                : variant + " round " + round + ": FAIL " + failure;
    }
}
