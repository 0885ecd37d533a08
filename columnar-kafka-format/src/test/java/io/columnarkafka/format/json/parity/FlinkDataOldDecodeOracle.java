package io.columnarkafka.format.json.parity;

import io.columnarkafka.format.json.DataOldEvents;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle.Outcome;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.canal.CanalJsonDeserializationSchema;
import org.apache.flink.formats.json.maxwell.MaxwellJsonDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * The expected rows and row kinds: Flink 2.2.1's {@code CanalJsonDeserializationSchema} or {@code
 * MaxwellJsonDeserializationSchema}, built as their decoding formats build them (no metadata; Canal's {@code
 * database.include} and {@code table.include} through its builder) and called as the Kafka connector calls them:
 * {@code deserialize(byte[], Collector)}, every collected row kept.
 */
final class FlinkDataOldDecodeOracle {
    private final DeserializationSchema<RowData> schema;

    private FlinkDataOldDecodeOracle(DeserializationSchema<RowData> schema) {
        this.schema = schema;
    }

    /** The deserializer of {@code events}' format for {@code rowType}, with its options (keys without the prefix). */
    static FlinkDataOldDecodeOracle of(DataOldEvents events, RowType rowType, Map<String, String> options) {
        boolean ignoreParseErrors = Boolean.parseBoolean(options.getOrDefault("ignore-parse-errors", "false"));
        TimestampFormat timestamps = "ISO-8601".equals(options.get("timestamp-format.standard"))
                ? TimestampFormat.ISO_8601 : TimestampFormat.SQL;
        DeserializationSchema<RowData> schema = switch (events) {
            case CANAL -> CanalJsonDeserializationSchema.builder(TypeConversions.fromLogicalToDataType(rowType),
                            List.of(), InternalTypeInfo.of(rowType))
                    .setDatabase(options.get("database.include"))
                    .setTable(options.get("table.include"))
                    .setIgnoreParseErrors(ignoreParseErrors)
                    .setTimestampFormat(timestamps)
                    .build();
            case MAXWELL -> new MaxwellJsonDeserializationSchema(TypeConversions.fromLogicalToDataType(rowType),
                    List.of(), InternalTypeInfo.of(rowType), ignoreParseErrors, timestamps);
        };
        try {
            schema.open(null); // opens the inner JSON deserializer (its ObjectMapper); reads no context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new FlinkDataOldDecodeOracle(schema);
    }

    Outcome deserialize(byte[] record) {
        return FlinkJsonDecodeOracle.collect(schema, record);
    }
}
