package io.columnarkafka.bench;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.avro.AvroFormatOptions.AvroEncoding;
import org.apache.flink.formats.avro.AvroRowDataSerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode;
import org.apache.flink.formats.json.debezium.DebeziumJsonSerializationSchema;
import org.apache.flink.formats.raw.RawFormatSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's own serializer of each format, the baseline: built as the format's factory builds it for a
 * table with no format options, then opened as a sink opens it before the first record.
 */
final class FlinkSerializers {
    private FlinkSerializers() {}

    /** The opened serializer of {@code format} for rows of {@code rowType} (the type Flink's sink passes). */
    static SerializationSchema<RowData> open(String format, RowType rowType) throws Exception {
        if (format.equals("json")) {
            return FlinkJson.openSerializer(rowType);
        }
        SerializationSchema<RowData> schema = switch (format) {
            case "csv" -> new CsvRowDataSerializationSchema.Builder(rowType).build();
            // Binary encoding; the legacy timestamp mapping is the avro format's default (true).
            case "avro" -> new AvroRowDataSerializationSchema(rowType, AvroEncoding.BINARY, true);
            case "debezium-json" -> new DebeziumJsonSerializationSchema(
                    rowType, TimestampFormat.SQL, MapNullKeyMode.FAIL, "null", false, false);
            case "raw" -> {
                if (rowType.getFieldCount() != 1) {
                    throw new IllegalArgumentException("raw takes exactly one column, got " + rowType);
                }
                yield new RawFormatSerializationSchema(rowType.getTypeAt(0), "UTF-8", true);
            }
            default -> throw new IllegalArgumentException("no Flink baseline for format '" + format + "'");
        };
        schema.open(null); // these open() methods build their writer or mapper and do not read the context
        return schema;
    }
}
