package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.PlannerOptionsInPlan;
import io.columnarkafka.bench.SteadyFigures;
import io.columnarkafka.bench.WarmUpFigures;
import java.util.Properties;

/**
 * One cell's measurements (from its JVM's result file) and its output check.
 *
 * @param round 0 for the uncounted warm-up round, then 1, 2, ... (recovery cells run in the counted rounds)
 * @param verdict OK, or FAIL with the reason (output differing from stock, job failure)
 * @param restoredCheckpoint a recovery cell's checkpoint the restart restored, -1 otherwise
 * @param checkpointAtFailure a recovery cell's last completed checkpoint at the failure, -1 otherwise
 * @param noticedSeconds a recovery cell's time from the kill to the job manager failing the tasks, NaN otherwise
 * @param steadyCheckpoints the checkpoints triggered in the steady window ({@link
 *     CheckpointFigures#triggeredBetween}); {@link CheckpointFigures#NONE} where it was not measured
 * @param checkpointByVertex the checkpoints' size and time per task ({@link CheckpointByVertex#describe}), one
 *     line per task; empty if not measured
 * @param checkpointPath the parts of the counted checkpoints' last acknowledgement ({@link CheckpointPath})
 * @param steady the steady-state rates ({@link SteadyFigures#NONE} for a recovery cell or a failed one)
 * @param steadyCores a fixed-rate cell's CPU cores (process CPU / wall time) while 10 % to 90 % of the input was
 *     read, NaN otherwise
 * @param fillSeconds a fixed-rate cell's time the live fill took to write the input (events / rate if it kept
 *     the rate), NaN otherwise
 * @param recoveryPhases a recovery cell's time from the kill to caught up in phases, null if not measured
 * @param restartByTask a recovery cell's per-task restart times ({@link ClusterJob#taskStateTimes}), empty
 *     otherwise
 * @param openSteps a recovery cell's open phase by the spare TaskManager's log ({@link OpenSteps}), empty otherwise
 * @param plannerOptionsInPlan what the cell's plan showed of its variant's planner options ({@link
 *     PlannerOptionsInPlan}); empty for a variant without any
 * @param phases a plain cell's job time cut into phases ({@link JobPhases}), null if not measured
 * @param warmUp a plain cell's JVM warm-up and the JIT's compile time in its measured job ({@link WarmUpFigures})
 * @param sendWindows the send window's backlog at the barriers and flush time per task ({@link
 *     TaskTimings#describeSendWindows}), one line per task with a window; empty if none
 */
record CellResult(CellSpec spec, int round, double jobSeconds, double cpuSeconds, CheckpointFigures checkpoints,
                  CheckpointFigures steadyCheckpoints,
                  String sinkPath, String sourceConnector, OutputDigest output, String verdict,
                  double restartSeconds, double recoverySeconds, long recordsReplayed, long restoredCheckpoint,
                  long checkpointAtFailure, String checkpointByVertex, CheckpointPath checkpointPath,
                  double noticedSeconds, SteadyFigures steady, double steadyCores, double fillSeconds,
                  RecoveryPhases recoveryPhases, String restartByTask, String openSteps, String plannerOptionsInPlan,
                  JobPhases phases, WarmUpFigures warmUp, String sendWindows) {
    /** The verdict of a cell whose output is checked but, for a reason the verdict states, not compared. */
    static final String NOT_COMPARED = "not compared: ";

    static CellResult of(CellSpec spec, int round, Properties p, OutputDigest output, String verdict) {
        return new CellResult(spec, round,
                Double.parseDouble(p.getProperty("jobSeconds")),
                Double.parseDouble(p.getProperty("cpuSeconds")),
                CheckpointFigures.load(p),
                CheckpointFigures.load(p, "steady"),
                p.getProperty("sinkPath"),
                p.getProperty("sourceConnector"),
                output, verdict,
                Double.parseDouble(p.getProperty("restartSeconds", "NaN")),
                Double.parseDouble(p.getProperty("recoverySeconds", "NaN")),
                Long.parseLong(p.getProperty("recordsReplayed", "-1")),
                Long.parseLong(p.getProperty("restoredCheckpoint", "-1")),
                Long.parseLong(p.getProperty("checkpointAtFailure", "-1")),
                p.getProperty("checkpointByVertex", ""),
                CheckpointPath.load(p),
                Double.parseDouble(p.getProperty("noticedSeconds", "NaN")),
                SteadyFigures.load(p),
                Double.parseDouble(p.getProperty("steadyCores", "NaN")),
                Double.parseDouble(p.getProperty("fillSeconds", "NaN")),
                RecoveryPhases.parse(p.getProperty("recoveryPhasesMs")),
                p.getProperty("restartByTask", ""),
                p.getProperty("openStepsMs", ""),
                p.getProperty("plannerOptionsInPlan", ""),
                JobPhases.parse(p.getProperty("phasesMs")),
                WarmUpFigures.load(p),
                p.getProperty("sendWindows", ""));
    }

    static CellResult failed(CellSpec spec, int round, String reason) {
        return new CellResult(spec, round, Double.NaN, Double.NaN, CheckpointFigures.NONE, CheckpointFigures.NONE,
                "", spec.variant().source(), new OutputDigest(0, ""), "FAIL: " + reason, Double.NaN, Double.NaN, -1, -1, -1, "",
                CheckpointPath.NONE, Double.NaN, SteadyFigures.NONE, Double.NaN, Double.NaN, null, "", "", "", null,
                WarmUpFigures.NONE, "");
    }

    /** A recovery cell: one failure injected mid-run. */
    boolean recovery() {
        return spec.failAtFraction() > 0;
    }

    /** The verdict's first line (a failed cell's verdict carries the tail of its log). */
    String verdictHeadline() {
        int end = verdict.indexOf('\n');
        return end < 0 ? verdict : verdict.substring(0, end);
    }

    /** The job ran and its output passed its check: equal to stock's, or checked and not compared. */
    boolean ok() {
        return compared() || verdict.startsWith(NOT_COMPARED);
    }

    /** The output equals stock's (or, q12's, the input's): the cell's figures may enter a geomean. */
    boolean compared() {
        return verdict.equals("OK");
    }

    double eventsPerSecond() {
        return spec.events() / jobSeconds;
    }

    /** The steady-state rate ({@link SteadyFigures#eventsPerSecond}): the slower of read and written. */
    double steadyEventsPerSecond() {
        return steady.eventsPerSecond();
    }

    /** Job time − events / steady rate: what the job's time holds beyond steady processing. */
    double fixedSeconds() {
        return steady.fixedSeconds(jobSeconds, spec.events());
    }

    double cpuSecondsPerMillionEvents() {
        return cpuSeconds * 1e6 / spec.events();
    }
}
