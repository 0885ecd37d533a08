package io.columnarkafka.bench.nexmark;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A recovery cell's time from the kill to caught up, cut into phases like {@link JobPhases} cuts a plain cell's job
 * time: from the job manager's failure record and the new attempts' state timestamps (Flink's REST API, at most
 * 50 ms old, see {@link RecoveryCell}) and the harness's position samples of the restarted sources ({@link
 * FailureInjection}). Milliseconds, each phase from the end of the one before; they add up to the recovery time
 * (the kill to caught up):
 *
 * <ol>
 *   <li>{@code detect}: the kill to the job manager recording the failure ({@link #detection}: the heartbeat RPCs
 *       to the dead process failing, or the heartbeat timeout);
 *   <li>{@code restartDelay}: to the first new attempt CREATED (the old attempts cancelled, the restart
 *       strategy's fixed delay);
 *   <li>{@code schedule}: to the last new attempt DEPLOYING (slots requested and offered by the spare TaskManager);
 *   <li>{@code deploy}: to the last INITIALIZING (task submitted to the spare, its thread and user class loader);
 *   <li>{@code open}: to the last RUNNING (state restore and every operator's open: the source reader, our
 *       planner stage's operators and their Arrow allocators and codec plans, the Kafka sink's writer and its
 *       transaction recovery, with the class loading and JIT of a cold TaskManager JVM);
 *   <li>{@code firstRead}: to the first sample in which the restarted sources report a position (split assignment,
 *       the first fetch; negative when the sources read before the last task ran, as in multi-task jobs);
 *   <li>{@code catchUp}: to the first sample at or past the failure position (the replay).
 * </ol>
 *
 * A phase a sample straddles is off by up to the sampling interval; a negative phase is kept as measured.
 */
record RecoveryPhases(String detection, long detect, long restartDelay, long schedule, long deploy, long open,
                      long firstRead, long catchUp) {

    /** The phases' names in order, as {@link #toString} writes them. */
    static final String[] NAMES = {"detect", "restartDelay", "schedule", "deploy", "open", "firstRead", "catchUp"};

    /**
     * The moments a recovery went through, ms since the epoch (one machine, one clock): the kill, the job
     * manager's failure record and its text, the new attempts' first CREATED and last DEPLOYING, INITIALIZING and
     * RUNNING, the restarted sources' first read and the first sample at the failure position.
     */
    record Timeline(long killed, long failed, String failure, long firstCreated, long lastDeploying,
                    long lastInitializing, long lastRunning, long firstRead, long caughtUp) {}

    static RecoveryPhases of(Timeline t) {
        return new RecoveryPhases(detection(t.failure()), t.failed() - t.killed(), t.firstCreated() - t.failed(),
                t.lastDeploying() - t.firstCreated(), t.lastInitializing() - t.lastDeploying(),
                t.lastRunning() - t.lastInitializing(), t.firstRead() - t.lastRunning(),
                t.caughtUp() - t.firstRead());
    }

    /**
     * How the job manager learned of the loss, from its failure's text: {@code heartbeat-timeout} (Flink's "Heartbeat
     * of TaskManager ... timed out"), {@code connection-loss} ("... is no longer reachable": the heartbeat RPCs to
     * the dead process refused), otherwise {@code other}.
     */
    static String detection(String failure) {
        if (failure.contains("no longer reachable")) {
            return "connection-loss";
        }
        if (failure.contains("Heartbeat") && failure.contains("timed out")) {
            return "heartbeat-timeout";
        }
        return "other";
    }

    /** The phases added up: the kill to caught up. */
    long total() {
        return detect + restartDelay + schedule + deploy + open + firstRead + catchUp;
    }

    /** The phases by name, in order. */
    Map<String, Long> byName() {
        long[] values = {detect, restartDelay, schedule, deploy, open, firstRead, catchUp};
        Map<String, Long> phases = new LinkedHashMap<>();
        for (int i = 0; i < NAMES.length; i++) {
            phases.put(NAMES[i], values[i]);
        }
        return phases;
    }

    /** Reads {@link #toString}'s form back (a cell's result file); null for anything else (not measured). */
    static RecoveryPhases parse(String text) {
        if (text == null || !text.startsWith("detection=")) {
            return null;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : text.split(" ")) {
            int eq = field.indexOf('=');
            fields.put(field.substring(0, eq), field.substring(eq + 1));
        }
        long[] v = new long[NAMES.length];
        for (int i = 0; i < NAMES.length; i++) {
            v[i] = Long.parseLong(fields.get(NAMES[i]));
        }
        return new RecoveryPhases(fields.get("detection"), v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("detection=").append(detection);
        byName().forEach((name, ms) -> s.append(String.format(Locale.ROOT, " %s=%d", name, ms)));
        return s.toString();
    }
}
