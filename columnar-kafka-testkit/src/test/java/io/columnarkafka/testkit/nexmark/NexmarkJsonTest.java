package io.columnarkafka.testkit.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RecordSlab;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;

/** The topic's bytes against Flink's own {@code json} format on the same rows (the oracle). */
class NexmarkJsonTest {

    @Test
    void valuesAreTheBytesFlinksJsonFormatWrites() throws Exception {
        NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.defaults(7));
        JsonRowDataSerializationSchema flink = flinkJson();
        int[] types = new int[3];
        int compared = 0;
        try (NexmarkJson json = new NexmarkJson(generator)) {
            for (long from : new long[] {0, 4000, 1_234_567, 50_000_000}) {
                int n = 3000;
                RecordSlab slab = json.encode(from, n);
                assertThat(slab.recordCount()).isEqualTo(n);
                for (int r = 0; r < n; r++) {
                    var event = generator.event(from + r);
                    assertThat(new String(slab.copyRecord(r), java.nio.charset.StandardCharsets.UTF_8))
                            .as("event %d", from + r)
                            .isEqualTo(new String(flink.serialize(event), java.nio.charset.StandardCharsets.UTF_8));
                    types[event.getInt(0)]++;
                    compared++;
                }
            }
            json.close();
            assertThat(json.allocatedBytes()).isZero();
        }
        assertThat(compared).isEqualTo(12_000);
        assertThat(types[0]).isGreaterThanOrEqualTo(200);
        assertThat(types[1]).isGreaterThanOrEqualTo(700);
    }

    /** As {@code JsonFormatFactory} builds it for a table with no {@code json.*} options, opened. */
    private static JsonRowDataSerializationSchema flinkJson() throws Exception {
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(NexmarkGenerator.EVENT_TYPE,
                TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        schema.open(new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(NexmarkJsonTest.class.getClassLoader());
            }
        });
        return schema;
    }
}
