package io.columnarkafka.bench;

import java.util.Locale;

/**
 * What a report says about the machine: the load average when the run started tells whether other work
 * shared the cores. The load after a run is mostly the run's own broker and Flink JVMs, so it says little.
 */
public final class MachineLoad {
    private MachineLoad() {}

    /** The first field of a {@code /proc/loadavg} line: the 1-minute load average. */
    public static double oneMinute(String procLoadavg) {
        return Double.parseDouble(procLoadavg.trim().split("\\s+")[0]);
    }

    /** Whether other work was running: a 1-minute load above the core count when the run started. */
    public static boolean busy(double loadBefore) {
        return loadBefore > Runtime.getRuntime().availableProcessors();
    }

    /**
     * One sentence: quiet when the 1-minute load before the run was at most the core count (the tail of a
     * benchmark run just before decays through it), else busy, in which case absolute rates are low and
     * noisy and the paired ratios are the measure.
     */
    public static String sentence(double loadBefore, double loadAfter) {
        int cores = Runtime.getRuntime().availableProcessors();
        String figures = String.format(Locale.ROOT, "%d cores; 1-minute load average %.2f before the run, %.2f after",
                cores, loadBefore, loadAfter);
        return !busy(loadBefore)
                ? "The machine was quiet when the run started (" + figures + "; the load after is the run's own"
                        + " broker and Flink JVMs)."
                : "**Other work was running on the machine when the run started** (" + figures + "): absolute"
                        + " rates are low and noisy; the paired ratios are the measure.";
    }
}
