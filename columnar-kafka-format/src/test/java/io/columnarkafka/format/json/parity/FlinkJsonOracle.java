package io.columnarkafka.format.json.parity;

import io.columnarkafka.format.json.JsonFormatOptions;
import java.util.Map;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** The expected bytes: Flink 2.2.1's own {@link JsonRowDataSerializationSchema}, opened as the connector opens it. */
public final class FlinkJsonOracle {
    private final JsonRowDataSerializationSchema schema;

    private FlinkJsonOracle(JsonRowDataSerializationSchema schema) {
        this.schema = schema;
    }

    /** The serializer of {@code rowType} with the options given by Flink's keys without the {@code json.} prefix. */
    public static FlinkJsonOracle of(RowType rowType, Map<String, String> options) {
        JsonFormatOptions o = JsonFormatOptions.fromMap(options);
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(
                rowType,
                o.timestampFormat() == JsonFormatOptions.TimestampFormat.SQL
                        ? TimestampFormat.SQL : TimestampFormat.ISO_8601,
                MapNullKeyMode.valueOf(o.mapNullKeyMode().name()),
                o.mapNullKeyLiteral(),
                o.decimalAsPlainNumber(),
                o.ignoreNullFields());
        try {
            schema.open(null); // open() only builds the ObjectMapper; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new FlinkJsonOracle(schema);
    }

    /** Flink's bytes for one row; Flink throws for a null map key under FAIL. */
    public byte[] serialize(RowData row) {
        return schema.serialize(row);
    }
}
