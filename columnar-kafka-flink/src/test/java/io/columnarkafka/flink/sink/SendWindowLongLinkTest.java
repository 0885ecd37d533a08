package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link SendWindow} on a long link ({@link ModelLink}). The window must let the sender fill
 * the link: its bound grows past the bandwidth-delay product instead of holding the sender to its first bound.
 */
class SendWindowLongLinkTest {
    private static final int RECORD_BYTES = 1000;
    private static final double BYTES_PER_SECOND = 50e6;
    private static final long ROUND_TRIP_NANOS = TimeUnit.MILLISECONDS.toNanos(40);
    private static final long BYTES = 150_000_000L;
    /** The sender (the columnar encoder) is ten times as fast as the link. */
    private static final long SEND_NANOS_PER_RECORD = 2_000;

    @Test
    void aDistantBrokersRateIsNotCapped() {
        ModelLink link = new ModelLink(BYTES_PER_SECOND, ROUND_TRIP_NANOS, SEND_NANOS_PER_RECORD);
        SendWindow window = link.window(SendWindow.DEFAULT_MAX_QUEUE_DELAY.toNanos());
        window.barrier(); // checkpoints run, their rhythm not yet known: the bound alone applies
        double seconds = link.send(BYTES / RECORD_BYTES, RECORD_BYTES, record -> {});
        double ideal = link.idealSeconds(BYTES);
        // Within 10 % of the link's own time (3 s; 7 % in the model's time): the bound grew from 64 KiB to the 2 MB
        // the link holds in a round trip at least twofold per round trip, and then did not hold the sender below the
        // link's rate. A bound that followed its own rate (the rule before the doubling) took 65 % longer.
        assertThat(seconds).isLessThan(ideal * 1.1);
        long bandwidthDelay = (long) (BYTES_PER_SECOND * ROUND_TRIP_NANOS / 1e9);
        assertThat(window.bound()).isGreaterThan(bandwidthDelay);
        assertThat(window.waitNanos()).as("the sender was held back: the link, not the sender, set the pace")
                .isPositive();
        assertThat(window.inFlight()).isZero();
    }
}
