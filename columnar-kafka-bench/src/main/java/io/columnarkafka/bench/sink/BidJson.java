package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/** Flink's JSON of Nexmark bids: the stock serializer and pre-built values. */
final class BidJson {
    private BidJson() {}

    /** Flink's JSON serializer for Bid rows as the json format builds it with no options (not opened). */
    static JsonRowDataSerializationSchema flinkSerializer() {
        return new JsonRowDataSerializationSchema(
                BidGenerator.BID_TYPE, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
    }

    /** Flink's JSON of rows {@code [0, rows)}. */
    static byte[][] valuePool(int rows) throws Exception {
        JsonRowDataSerializationSchema json = flinkSerializer();
        open(json);
        BidGenerator generator = new BidGenerator(RunSpec.SEED);
        byte[][] pool = new byte[rows][];
        for (int i = 0; i < rows; i++) {
            pool[i] = json.serialize(generator.row(i));
        }
        return pool;
    }

    /** Opens the serializer as a sink would, outside a job. */
    static void open(JsonRowDataSerializationSchema json) throws Exception {
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
    }
}
