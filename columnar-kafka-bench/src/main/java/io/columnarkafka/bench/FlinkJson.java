package io.columnarkafka.bench;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/** Flink's own JSON serializer, the baseline: built with the json format's defaults and opened. */
public final class FlinkJson {
    private FlinkJson() {}

    /**
     * Builds the serializer as {@code JsonFormatFactory} does for a table with no {@code json.*} options,
     * then opens it as a sink does before the first record.
     */
    public static JsonRowDataSerializationSchema openSerializer(RowType rowType) throws Exception {
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(
                rowType, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        schema.open(new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(FlinkJson.class.getClassLoader());
            }
        });
        return schema;
    }
}
