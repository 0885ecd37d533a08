package io.columnarkafka.bench.nexmark;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The recovery's {@code open} phase ({@link RecoveryPhases}) split by the spare TaskManager's log, which the
 * cluster's log configuration keeps at INFO for Flink's {@code Task}, the source reader, the Kafka sink and the
 * producers' transaction manager: milliseconds after the restarted tasks' first {@code DEPLOYING to INITIALIZING},
 * the first line of each step, in the order a Kafka-to-Kafka job's restore takes them:
 *
 * <ol>
 *   <li>{@code arrow}: Arrow's root allocator initialized (columnar only: our first Arrow use in the cold JVM);
 *   <li>{@code warmUp}: the columnar source's background Arrow initialization done ({@code ArrowWarmUp}; before
 *       {@code reader}, the source task did not wait for Arrow's {@code Schema} and allocator);
 *   <li>{@code reader}: the last source reader created ("Rate limiting of SourceReader": the source's reader set-up,
 *       ours building its decoder plan);
 *   <li>{@code commitRestored}: the committer resuming a restored transaction to commit it;
 *   <li>{@code abortLingering}: the sink writer aborting lingering transactions of the failed attempt;
 *   <li>{@code splits}: the last split added to a reader (the enumerator's assignment after the readers registered);
 *   <li>{@code running}: the last task RUNNING.
 * </ol>
 *
 * A step whose line is missing is -1 (no Arrow in stock; no restored transaction to commit). The log's times have no
 * date; a step past midnight is counted on the next day.
 */
record OpenSteps(long arrow, long warmUp, long reader, long commitRestored, long abortLingering, long splits, long running) {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss,SSS", Locale.ROOT);

    /** The steps in the log's lines of one TaskManager; null if no task was initialized in it. */
    static OpenSteps of(List<String> lines) {
        LocalTime start = null;
        long arrow = -1;
        long warmUp = -1;
        long reader = -1;
        long commit = -1;
        long abort = -1;
        long splits = -1;
        long running = -1;
        for (String line : lines) {
            LocalTime at = time(line);
            if (at == null) {
                continue;
            }
            if (start == null) {
                if (line.contains("switched from DEPLOYING to INITIALIZING")) {
                    start = at;
                }
                continue;
            }
            long ms = millisAfter(start, at);
            if (line.contains("BaseAllocator") && arrow < 0) {
                arrow = ms;
            } else if (line.contains("Arrow warm-up done") && warmUp < 0) {
                warmUp = ms;
            } else if (line.contains("Rate limiting of SourceReader")) {
                reader = ms;
            } else if (line.contains("Attempting to resume transaction") && commit < 0) {
                commit = ms;
            } else if (line.contains("Aborting lingering transactions from previous execution") && abort < 0) {
                abort = ms;
            } else if (line.contains("Adding split(s) to reader")) {
                splits = ms;
            } else if (line.contains("switched from INITIALIZING to RUNNING")) {
                running = ms;
            }
        }
        return start == null ? null : new OpenSteps(arrow, warmUp, reader, commit, abort, splits, running);
    }

    private static LocalTime time(String line) {
        if (line.length() < 12 || line.charAt(2) != ':' || line.charAt(8) != ',') {
            return null;
        }
        return LocalTime.parse(line.substring(0, 12), TIME);
    }

    private static long millisAfter(LocalTime start, LocalTime at) {
        long ms = (at.toNanoOfDay() - start.toNanoOfDay()) / 1_000_000;
        return ms < 0 ? ms + 86_400_000 : ms;
    }

    @Override
    public String toString() {
        List<String> steps = new ArrayList<>();
        String[] names = {"arrow", "warmUp", "reader", "commitRestored", "abortLingering", "splits", "running"};
        long[] values = {arrow, warmUp, reader, commitRestored, abortLingering, splits, running};
        for (int i = 0; i < names.length; i++) {
            steps.add(names[i] + "=" + (values[i] < 0 ? "–" : Long.toString(values[i])));
        }
        return String.join(" ", steps);
    }
}
