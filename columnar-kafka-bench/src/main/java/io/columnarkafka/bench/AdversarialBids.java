package io.columnarkafka.bench;

import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.SplittableRandom;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Bid-shaped rows ({@code BidGenerator.BID_TYPE}, so every format's benchmark takes them as it takes the
 * bids) whose values do not flatter an encoder: strings that need JSON escapes (quotes, backslashes,
 * control characters, U+2028), CSV quoting (delimiters, quotes, line breaks) and multi-byte UTF-8
 * (accents, CJK, non-BMP characters written as surrogate pairs), in every string column; numbers over
 * the whole signed 64-bit range, their extremes included; and timestamps spread over centuries
 * (pre-1970 included), so no two rows share a second and fractions take zero to three digits.
 *
 * <p>{@link #row(long)} defines the values; {@link #fill} writes the same values into Arrow vectors by
 * reading them back from those rows. Built once per benchmark trial: neither side is on a measured path.
 */
final class AdversarialBids {
    /** Pieces strings are made of: each needs escaping, quoting or several UTF-8 bytes, or none of these. */
    private static final String[] PIECES = {
        "plain", "quote\"d", "back\\slash", "tab\there", "line\nbreak", "cr\rlf", "ctrl\u0001\u001f\u007f",
        "comma,semi;pipe|", "/path/", "naïve café", "Zürich–Kraków", "日本語の文字列", "中文", "emoji 😀🚀",
        "𝄞 clef", "sep\u2028\u2029", "", " ", "\"\"", "ÿ\u00a0€",
    };
    /** 1900-01-01T00:00:00Z to 2100-01-01T00:00:00Z in milliseconds. */
    private static final long FIRST_MILLIS = -2_208_988_800_000L;
    private static final long SPAN_MILLIS = 6_311_433_600_000L;
    private static final long[] EXTREMES = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Integer.MIN_VALUE};

    private final long seed;

    AdversarialBids(long seed) {
        this.seed = seed;
    }

    /** Row {@code i}, deterministic. */
    GenericRowData row(long i) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        return GenericRowData.of(
                number(random),
                number(random),
                number(random),
                StringData.fromString(text(random, 1, 2)),
                StringData.fromString("https://example.com/" + text(random, 1, 4) + "?q=" + text(random, 0, 2)),
                timestamp(random),
                StringData.fromString(text(random, 2, 8)));
    }

    /** Writes rows {@code [0, rows)} into {@code batch}, laid out as {@code ArrowLayout.schema(BID_TYPE)}. */
    void fill(VectorSchemaRoot batch, int rows) {
        ArrowLayout.check(BidGenerator.BID_TYPE, batch);
        for (int i = 0; i < rows; i++) {
            GenericRowData row = row(i);
            for (int f = 0; f < 3; f++) {
                ((BigIntVector) batch.getVector(f)).setSafe(i, row.getLong(f));
            }
            for (int f : new int[] {3, 4, 6}) {
                byte[] bytes = row.getString(f).toBytes();
                ((VarCharVector) batch.getVector(f)).setSafe(i, bytes, 0, bytes.length);
            }
            ((TimeStampMilliVector) batch.getVector(5)).setSafe(i, row.getTimestamp(5, 3).getMillisecond());
        }
        batch.setRowCount(rows);
    }

    private static long number(SplittableRandom random) {
        return random.nextInt(8) == 0 ? EXTREMES[random.nextInt(EXTREMES.length)] : random.nextLong();
    }

    private static String text(SplittableRandom random, int minPieces, int maxPieces) {
        StringBuilder s = new StringBuilder();
        int pieces = minPieces + random.nextInt(maxPieces - minPieces + 1);
        for (int p = 0; p < pieces; p++) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return s.toString();
    }

    /** Any millisecond of 1900–2099; one in four a whole second, one in four a whole tenth. */
    private static TimestampData timestamp(SplittableRandom random) {
        long millis = FIRST_MILLIS + random.nextLong(SPAN_MILLIS);
        switch (random.nextInt(4)) {
            case 0 -> millis = Math.floorDiv(millis, 1000) * 1000;
            case 1 -> millis = Math.floorDiv(millis, 100) * 100;
            default -> { }
        }
        return TimestampData.fromEpochMillis(millis);
    }
}
