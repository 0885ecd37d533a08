package io.columnarkafka.format.json.parity;

import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.debezium.DebeziumJsonDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.util.Collector;

/**
 * The expected rows and row kinds: Flink 2.2.1's {@code DebeziumJsonDeserializationSchema}, built as {@code
 * DebeziumJsonDecodingFormat} builds it (no metadata) and called as the Kafka connector calls it: {@code
 * deserialize(byte[], Collector)}, every collected row kept.
 */
final class FlinkDebeziumDecodeOracle {
    private final DebeziumJsonDeserializationSchema schema;

    private FlinkDebeziumDecodeOracle(DebeziumJsonDeserializationSchema schema) {
        this.schema = schema;
    }

    /** The deserializer of {@code rowType} with debezium-json's options (keys without the prefix). */
    static FlinkDebeziumDecodeOracle of(RowType rowType, Map<String, String> options) {
        DebeziumJsonDeserializationSchema schema = new DebeziumJsonDeserializationSchema(
                TypeConversions.fromLogicalToDataType(rowType), List.of(), InternalTypeInfo.of(rowType),
                Boolean.parseBoolean(options.getOrDefault("schema-include", "false")),
                Boolean.parseBoolean(options.getOrDefault("ignore-parse-errors", "false")),
                "ISO-8601".equals(options.get("timestamp-format.standard"))
                        ? TimestampFormat.ISO_8601 : TimestampFormat.SQL);
        try {
            schema.open(null); // opens the inner JSON deserializer (its ObjectMapper); reads no context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new FlinkDebeziumDecodeOracle(schema);
    }

    Outcome deserialize(byte[] record) {
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
