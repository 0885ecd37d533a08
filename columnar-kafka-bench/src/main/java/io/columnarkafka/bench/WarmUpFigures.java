package io.columnarkafka.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * A measured job's JIT figures ({@link JvmWarmUp}), a Nexmark or CDC cell's or a pipeline run's: the warm-up jobs
 * its JVM ran before it, the share of the last one's wall time the JIT spent compiling, and the JIT's compile time
 * during the measured job.
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

    /**
     * A report's JVM warm-up paragraph, empty for {@link JvmWarmUp#OFF}: what the warm-up was, for {@link
     * JvmWarmUp#SETTLED} how many runs each variant's cells took and how many stopped at the cap, and the JIT's compile
     * time left in the measured jobs, the median per variant.
     *
     * @param whose whose JVM warmed up, e.g. {@code each plain cell's JVM}
     * @param aside a sentence after the mode's (which cells run without it), empty for none
     * @param byVariant the figures of the cells that ran a warm-up, per variant id, in the report's order (none when
     *     every cell failed)
     */
    public static String paragraph(JvmWarmUp mode, String whose, String aside,
                                   Map<String, List<WarmUpFigures>> byVariant) {
        if (mode == JvmWarmUp.OFF) {
            return "";
        }
        StringBuilder md = new StringBuilder("**JVM warm-up** (`--jvm-warm-up ").append(mode.flag()).append("`): ");
        md.append(whose).append(mode == JvmWarmUp.ONCE
                ? " first ran its job once over the same input, unmeasured, into a topic of its own, then the"
                        + " measured job: the JIT had compiled the query's code (Flink's, Kafka's and the variant's)"
                        + " before the job these figures time, as in a long-running TaskManager."
                : String.format(Locale.ROOT, " ran its job over the same input, unmeasured, into a topic of its own,"
                        + " again until one run spent at most %.0f %% of its wall time compiling (at most %d runs),"
                        + " then the measured job: the JIT as quiet as in a TaskManager that has run for minutes.",
                        JvmWarmUp.SETTLED_JIT_SHARE * 100, JvmWarmUp.SETTLED_MAX_JOBS));
        if (!aside.isEmpty()) {
            md.append(' ').append(aside);
        }
        if (byVariant.isEmpty()) {
            return md.append(" No cell has warm-up figures: every one failed.\n\n").toString();
        }
        if (mode == JvmWarmUp.SETTLED) {
            md.append(" Warm-up runs per cell: ").append(byVariant.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue().stream().mapToInt(WarmUpFigures::jobs).min().orElseThrow()
                            + "–" + e.getValue().stream().mapToInt(WarmUpFigures::jobs).max().orElseThrow())
                    .collect(Collectors.joining(", ")));
            long unsettled = byVariant.values().stream().flatMap(List::stream)
                    .filter(w -> !(w.lastJitShare() <= JvmWarmUp.SETTLED_JIT_SHARE)).count();
            md.append(unsettled == 0 ? "; every cell settled."
                    : String.format(Locale.ROOT, "; %d cell(s) stopped at %d runs with the JIT still busier.",
                            unsettled, JvmWarmUp.SETTLED_MAX_JOBS));
        }
        md.append(" JIT compile time in the measured job (all compiler threads, elapsed; median over cells): ")
                .append(byVariant.entrySet().stream()
                        .map(e -> String.format(Locale.ROOT, "%s %.2f s", e.getKey(), Spread.of(e.getValue().stream()
                                .map(WarmUpFigures::measuredJitSeconds).toList()).median()))
                        .collect(Collectors.joining(", ")))
                .append(".\n\n");
        return md.toString();
    }
}
