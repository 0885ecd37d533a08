package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link SendWindow} between checkpoint barriers, on a {@link ModelLink} slower than the sender (as a broker
 * sharing the machine is slower than the columnar encoder): the backlog may grow between barriers and is down to
 * a round trip's worth when one arrives, and the link never idles for it.
 */
class SendWindowBarrierTest {
    private static final int RECORD_BYTES = 1000;
    private static final double BYTES_PER_SECOND = 50e6;
    private static final long ROUND_TRIP_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long BARRIER_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long BYTES = 100_000_000L;
    /** The sender (the columnar encoder) is ten times as fast as the link. */
    private static final long SEND_NANOS_PER_RECORD = 2_000;
    /** What the link carries in a round trip (100 kB). */
    private static final long ROUND_TRIP_BYTES = (long) (BYTES_PER_SECOND * ROUND_TRIP_NANOS / 1e9);
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(60);
    /**
     * How far from when the window expects it a barrier may come and still be in rhythm: the window's settling
     * stretch, 2 × (round trip + max(10 ms queue delay, round trip)) either side.
     */
    private static final long IN_RHYTHM_NANOS = 2 * (ROUND_TRIP_NANOS + Math.max(
            SendWindow.DEFAULT_MAX_QUEUE_DELAY.toNanos(), ROUND_TRIP_NANOS));

    @Test
    void theBacklogGrowsBetweenBarriersAndIsDrainedToARoundTripAtEach() {
        ModelLink link = new ModelLink(BYTES_PER_SECOND, ROUND_TRIP_NANOS, SEND_NANOS_PER_RECORD);
        Run run = Run.of(link, -1);
        // The link set the pace throughout: within 5 % of its own time (2 s).
        assertThat(run.seconds).isLessThan(link.idealSeconds(BYTES) * 1.05);
        assertThat(run.barriers).hasSizeGreaterThanOrEqualTo(9);
        // From the second barrier on the window knows the rhythm: every barrier comes when the window expects it,
        // and finds no more in flight than the link carries in a round trip (100 kB; plus the record sent after
        // the last check), far below the bound (rate x (round trip + 10 ms) = 600 kB), which it finds at the first.
        long largestBound = 0;
        for (int i = 1; i < run.barriers.size(); i++) {
            assertThat(run.offRhythmNanos(i)).as("barrier %d off its expected time", i)
                    .isLessThanOrEqualTo(IN_RHYTHM_NANOS);
            assertThat(run.inFlight(i)).as("in flight at barrier %d", i)
                    .isLessThanOrEqualTo(ROUND_TRIP_BYTES + RECORD_BYTES);
            largestBound = Math.max(largestBound, run.bound(i));
        }
        // Between barriers the producer holds far more than the bound: the sender is not held back there.
        assertThat(run.mostInFlight).isGreaterThan(5 * largestBound);
        assertThat(run.window.inFlight()).isZero();
    }

    @Test
    void aBarrierMadeLateByAPauseOfTheSenderUnsettlesOnlyTheNextOne() {
        // A pause of the sending thread (a garbage collection, a scheduler on a busy machine) delays a barrier; the
        // schedule keeps its rate, as Flink's checkpoint trigger does, so the next one comes as much early.
        ModelLink link = new ModelLink(BYTES_PER_SECOND, ROUND_TRIP_NANOS, SEND_NANOS_PER_RECORD);
        Run run = Run.of(link, 4);
        assertThat(run.seconds).isLessThan(link.idealSeconds(BYTES) * 1.05);
        assertThat(run.offRhythmNanos(4)).as("the paused barrier").isGreaterThan(IN_RHYTHM_NANOS);
        // The one after it comes early, while the backlog may still exceed a round trip's worth: still within the
        // bound it had (+25 % for the window's estimates).
        assertThat(run.inFlight(5)).isLessThanOrEqualTo(run.bound(5) * 5 / 4 + RECORD_BYTES);
        // From the next on, the rhythm and the round trip's worth at each barrier are back.
        for (int i = 6; i < run.barriers.size(); i++) {
            assertThat(run.offRhythmNanos(i)).as("barrier %d off its expected time", i)
                    .isLessThanOrEqualTo(IN_RHYTHM_NANOS);
            assertThat(run.inFlight(i)).as("in flight at barrier %d", i)
                    .isLessThanOrEqualTo(ROUND_TRIP_BYTES + RECORD_BYTES);
        }
        assertThat(run.barriers.size()).isGreaterThan(7);
    }

    /** A run with a barrier every {@link #BARRIER_GAP_NANOS}, the sender paused before barrier {@code pausedAt}. */
    private static final class Run {
        final SendWindow window;
        final List<long[]> barriers = new ArrayList<>(); // {in flight, bound, time} as each barrier was taken
        final long firstBarrier;
        long mostInFlight;
        double seconds;

        private Run(SendWindow window, long firstBarrier) {
            this.window = window;
            this.firstBarrier = firstBarrier;
        }

        static Run of(ModelLink link, int pausedAt) {
            SendWindow window = link.window(SendWindow.DEFAULT_MAX_QUEUE_DELAY.toNanos());
            window.barrier(); // a job already checkpointing (before its first barrier the window bounds nothing)
            Run run = new Run(window, link.nanoTime());
            long[] nextBarrier = {run.firstBarrier + BARRIER_GAP_NANOS};
            run.seconds = link.send(BYTES / RECORD_BYTES, RECORD_BYTES, record -> {
                run.mostInFlight = Math.max(run.mostInFlight, window.inFlight());
                if (run.barriers.size() == pausedAt && link.nanoTime() >= nextBarrier[0] - PAUSE_NANOS / 2) {
                    link.pauseSender(PAUSE_NANOS);
                }
                // As in a task: a barrier is taken between records, so one due while the sender waits comes late.
                long now = link.nanoTime();
                if (now >= nextBarrier[0]) {
                    run.barriers.add(new long[] {window.inFlight(), window.bound(), now});
                    window.barrier();
                    nextBarrier[0] += BARRIER_GAP_NANOS;
                }
            });
            return run;
        }

        long inFlight(int barrier) {
            return barriers.get(barrier)[0];
        }

        long bound(int barrier) {
            return barriers.get(barrier)[1];
        }

        long time(int barrier) {
            return barrier < 0 ? firstBarrier : barriers.get(barrier)[2];
        }

        /**
         * How far from when the window expects it (the shorter of the last two gaps after the last barrier, its
         * contract) barrier {@code i} came.
         */
        long offRhythmNanos(int i) {
            long gap = time(i - 1) - time(i - 2);
            long expected = time(i - 1) + (i >= 2 ? Math.min(gap, time(i - 2) - time(i - 3)) : gap);
            return Math.abs(time(i) - expected);
        }
    }

    @Test
    void withoutBarriersItHoldsNothingBack() {
        // A job without checkpoints (a bounded one in batch mode): no flush to shorten, so no bound.
        ModelLink link = new ModelLink(BYTES_PER_SECOND, ROUND_TRIP_NANOS, SEND_NANOS_PER_RECORD);
        SendWindow window = link.window(SendWindow.DEFAULT_MAX_QUEUE_DELAY.toNanos());
        long[] mostInFlight = {0};
        long bytes = BYTES / 10;
        link.send(bytes / RECORD_BYTES, RECORD_BYTES,
                record -> mostInFlight[0] = Math.max(mostInFlight[0], window.inFlight()));
        // Never held back, though it ran ahead of the link by more than the bound it starts with.
        assertThat(window.waitNanos()).isZero();
        assertThat(mostInFlight[0]).isGreaterThan(SendWindow.FLOOR_BYTES);
    }
}
