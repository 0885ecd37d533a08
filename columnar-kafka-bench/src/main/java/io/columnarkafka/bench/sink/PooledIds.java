package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;

/**
 * How pooled input keeps every record's id unique. Row {@code i} is pool row {@code r = i % poolRows} in
 * pass {@code p = i / poolRows}, and carries the pool row's values except its {@code dateTime}, which is
 * moved {@code p} whole days on: {@code BASE + r + p * DAY}. The id read back from the record's JSON
 * ({@code BidIndex.ofJson}, milliseconds since the base) then names one row, so the verifier counts
 * every record on its own, and a batch written twice cannot hide a batch lost elsewhere (with ids that
 * repeat every pass it could: both would move the same pool rows' counts, one up and one down).
 *
 * <p>Whole days keep the cost of a pass down: only the date changes, never the time of day or its
 * fraction, so in pre-built JSON it is a fixed 10-byte patch at a known offset, and the record's length
 * stays that of the pool row.
 */
final class PooledIds {
    static final long PASS_MILLIS = 86_400_000L;

    private PooledIds() {}

    /** The dateTime of row {@code row}: pool row {@code row % poolRows}'s, moved one day per pass. */
    static long dateTimeMillis(long row, int poolRows) {
        return BidGenerator.BASE_EPOCH_MILLIS + row % poolRows + row / poolRows * PASS_MILLIS;
    }

    /**
     * The row whose dateTime lies {@code millisSinceBase} after the base, or -1 if no pooled row has it
     * (the verifier then counts the record as unexpected).
     */
    static long rowOf(long millisSinceBase, int poolRows) {
        if (millisSinceBase < 0 || millisSinceBase % PASS_MILLIS >= poolRows) {
            return -1;
        }
        return millisSinceBase / PASS_MILLIS * poolRows + millisSinceBase % PASS_MILLIS;
    }
}
