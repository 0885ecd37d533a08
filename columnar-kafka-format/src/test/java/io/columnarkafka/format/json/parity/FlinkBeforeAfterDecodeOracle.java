package io.columnarkafka.format.json.parity;

import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle.Outcome;
import java.util.List;
import java.util.Map;
import org.apache.flink.formats.common.TimestampFormat;
import io.columnarkafka.format.json.BeforeAfterEvents;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.json.debezium.DebeziumJsonDeserializationSchema;
import org.apache.flink.formats.json.ogg.OggJsonDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * The expected rows and row kinds: Flink 2.2.1's {@code DebeziumJsonDeserializationSchema} or {@code
 * OggJsonDeserializationSchema}, built as their decoding formats build them (no metadata) and called as the
 * Kafka connector calls them: {@code deserialize(byte[], Collector)}, every collected row kept.
 */
final class FlinkBeforeAfterDecodeOracle {
    private final DeserializationSchema<RowData> schema;

    private FlinkBeforeAfterDecodeOracle(DeserializationSchema<RowData> schema) {
        this.schema = schema;
    }

    /** The deserializer of {@code events}' format for {@code rowType}, with its options (keys without the prefix). */
    static FlinkBeforeAfterDecodeOracle of(BeforeAfterEvents events, RowType rowType, Map<String, String> options) {
        boolean ignoreParseErrors = Boolean.parseBoolean(options.getOrDefault("ignore-parse-errors", "false"));
        TimestampFormat timestamps = "ISO-8601".equals(options.get("timestamp-format.standard"))
                ? TimestampFormat.ISO_8601 : TimestampFormat.SQL;
        DeserializationSchema<RowData> schema = switch (events) {
            case DEBEZIUM -> new DebeziumJsonDeserializationSchema(TypeConversions.fromLogicalToDataType(rowType),
                    List.of(), InternalTypeInfo.of(rowType),
                    Boolean.parseBoolean(options.getOrDefault("schema-include", "false")), ignoreParseErrors,
                    timestamps);
            case OGG -> new OggJsonDeserializationSchema(TypeConversions.fromLogicalToDataType(rowType), List.of(),
                    InternalTypeInfo.of(rowType), ignoreParseErrors, timestamps);
        };
        try {
            schema.open(null); // opens the inner JSON deserializer (its ObjectMapper); reads no context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new FlinkBeforeAfterDecodeOracle(schema);
    }

    Outcome deserialize(byte[] record) {
        return FlinkJsonDecodeOracle.collect(schema, record);
    }
}
