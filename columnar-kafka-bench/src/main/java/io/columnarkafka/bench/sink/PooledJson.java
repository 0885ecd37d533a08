package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidIndex;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Pre-built JSON values of pool rows {@code [0, poolRows)} (Flink's own JSON, built once), handed out per
 * row with the pass's date patched in (see {@link PooledIds}): one copy of the pooled value per record,
 * the {@code byte[]} a producer needs anyway once records differ, and a 10-byte patch.
 */
final class PooledJson {
    private static final int DATE_LENGTH = 10;
    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final byte[][] values;
    private final int[] dateOffsets;
    private long datePass = -1;
    private byte[] date;

    PooledJson(int poolRows) throws Exception {
        values = BidJson.valuePool(poolRows);
        dateOffsets = new int[poolRows];
        for (int r = 0; r < poolRows; r++) {
            dateOffsets[r] = BidIndex.dateTimeAt(values[r]);
            if (dateOffsets[r] < 0) {
                throw new IllegalStateException("no dateTime in pool row " + r);
            }
        }
    }

    /** The JSON of row {@code row}: a fresh copy of its pool row's value, carrying its pass's date. */
    byte[] value(long row) {
        int poolRows = values.length;
        int r = (int) (row % poolRows);
        long pass = row / poolRows;
        if (pass != datePass) {
            date = DATE.format(Instant.ofEpochMilli(PooledIds.dateTimeMillis(row, poolRows)))
                    .getBytes(StandardCharsets.US_ASCII);
            datePass = pass;
        }
        byte[] value = values[r].clone();
        System.arraycopy(date, 0, value, dateOffsets[r], DATE_LENGTH);
        return value;
    }
}
