package io.columnarkafka.testkit.nexmark;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * The row index of a Nexmark bid read back from its JSON value, for verifiers: row {@code i}'s dateTime
 * is {@code BidGenerator.BASE_EPOCH_MILLIS + i} ms, and Flink's JSON writes it in the SQL timestamp
 * format {@code yyyy-MM-dd HH:mm:ss[.f{1,3}]} (minimal fraction digits).
 */
public final class BidIndex {
    private static final byte[] DATE_TIME = "\"dateTime\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private BidIndex() {}

    /** The row index of a bid's JSON value, or -1 if it has no dateTime field. */
    public static long ofJson(byte[] json) {
        int p = dateTimeAt(json);
        if (p < 0) {
            return -1;
        }
        long days = LocalDate.of(digits(json, p, 4), digits(json, p + 5, 2), digits(json, p + 8, 2)).toEpochDay();
        long millis = days * MILLIS_PER_DAY
                + digits(json, p + 11, 2) * 3_600_000L
                + digits(json, p + 14, 2) * 60_000L
                + digits(json, p + 17, 2) * 1000L;
        p += 19;
        if (json[p] == '.') {
            int scale = 100;
            for (p++; json[p] != '"'; p++, scale /= 10) {
                millis += (json[p] - '0') * scale;
            }
        }
        return millis - BidGenerator.BASE_EPOCH_MILLIS;
    }

    /** Where the text of a bid's dateTime value starts in its JSON (after the quote), or -1 if it has none. */
    public static int dateTimeAt(byte[] json) {
        int at = indexOf(json, DATE_TIME);
        return at < 0 ? -1 : at + DATE_TIME.length;
    }

    private static int digits(byte[] bytes, int from, int count) {
        int n = 0;
        for (int i = from; i < from + count; i++) {
            n = n * 10 + (bytes[i] - '0');
        }
        return n;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
