package io.columnarkafka.format.json.parity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * The expected rows: Flink 2.2.1's default JSON deserializer, {@link JsonParserRowDataDeserializationSchema}
 * ({@code decode.json-parser.enabled=true}), called as the Kafka connector calls it: {@code
 * deserialize(byte[], Collector)}, every collected row kept (null ones included).
 */
public final class FlinkJsonDecodeOracle {
    private final JsonParserRowDataDeserializationSchema schema;

    /** What Flink made of one record: the collected rows, or the exception it threw. */
    public record Outcome(List<RowData> rows, Throwable error) {
        public boolean rejected() {
            return error != null;
        }
    }

    private FlinkJsonDecodeOracle(JsonParserRowDataDeserializationSchema schema) {
        this.schema = schema;
    }

    /** The deserializer of {@code rowType} with the options by Flink's keys without the {@code json.} prefix. */
    public static FlinkJsonDecodeOracle of(RowType rowType, Map<String, String> options) {
        JsonParserRowDataDeserializationSchema schema = new JsonParserRowDataDeserializationSchema(
                rowType,
                InternalTypeInfo.of(rowType),
                Boolean.parseBoolean(options.getOrDefault("fail-on-missing-field", "false")),
                Boolean.parseBoolean(options.getOrDefault("ignore-parse-errors", "false")),
                "ISO-8601".equals(options.get("timestamp-format.standard"))
                        ? TimestampFormat.ISO_8601 : TimestampFormat.SQL);
        try {
            schema.open(null); // open() only builds the ObjectMapper; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new FlinkJsonDecodeOracle(schema);
    }

    public Outcome deserialize(byte[] record) {
        return collect(schema, record);
    }

    /** What {@code schema} makes of {@code record} through {@code deserialize(byte[], Collector)}. */
    static Outcome collect(DeserializationSchema<RowData> schema, byte[] record) {
        List<RowData> rows = new ArrayList<>();
        try {
            schema.deserialize(record, new Collector<>() {
                @Override
                public void collect(RowData row) {
                    rows.add(row);
                }

                @Override
                public void close() {}
            });
            return new Outcome(rows, null);
        } catch (Throwable t) {
            return new Outcome(rows, t);
        }
    }
}
