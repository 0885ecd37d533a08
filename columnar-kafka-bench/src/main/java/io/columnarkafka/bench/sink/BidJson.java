package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/** Flink's JSON of Nexmark bids: the stock serializer, pre-built values, and a row's index read back. */
final class BidJson {
    private static final byte[] DATE_TIME = "\"dateTime\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private BidJson() {}

    /** Flink's JSON serializer for Bid rows as the json format builds it with no options (not opened). */
    static JsonRowDataSerializationSchema flinkSerializer() {
        return new JsonRowDataSerializationSchema(
                BidGenerator.BID_TYPE, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
    }

    /** Flink's JSON of rows {@code [0, rows)}. */
    static byte[][] valuePool(int rows) throws Exception {
        JsonRowDataSerializationSchema json = flinkSerializer();
        json.open(new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(BidJson.class.getClassLoader());
            }
        });
        BidGenerator generator = new BidGenerator(RunSpec.SEED);
        byte[][] pool = new byte[rows][];
        for (int i = 0; i < rows; i++) {
            pool[i] = json.serialize(generator.row(i));
        }
        return pool;
    }

    /**
     * The row index of a Bid's JSON value: its dateTime is {@code BASE_EPOCH_MILLIS + index} ms, written
     * in Flink's SQL timestamp format {@code yyyy-MM-dd HH:mm:ss[.f{1,3}]}. -1 if there is no dateTime.
     */
    static long rowIndex(byte[] json) {
        int at = indexOf(json, DATE_TIME);
        if (at < 0) {
            return -1;
        }
        int p = at + DATE_TIME.length;
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
