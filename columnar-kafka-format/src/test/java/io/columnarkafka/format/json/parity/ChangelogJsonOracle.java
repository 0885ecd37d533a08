package io.columnarkafka.format.json.parity;

import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.json.JsonFormatOptions;
import io.columnarkafka.format.parity.ParityCheck;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode;
import org.apache.flink.formats.json.canal.CanalJsonSerializationSchema;
import org.apache.flink.formats.json.debezium.DebeziumJsonSerializationSchema;
import org.apache.flink.formats.json.maxwell.MaxwellJsonSerializationSchema;
import org.apache.flink.formats.json.ogg.OggJsonSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink 2.2.1's serializer of a changelog JSON format, opened with the options its format factory reads: the
 * oracle for {@link io.columnarkafka.format.json.ChangelogJsonBatchEncoder}.
 */
final class ChangelogJsonOracle {
    private ChangelogJsonOracle() {}

    /** A {@link ParityCheck} of {@code envelope}'s format against Flink's serializer. */
    static ParityCheck parityCheck(ChangelogEnvelope envelope) {
        return new ParityCheck(envelope.identifier(), (type, options) -> open(envelope, type, options)::serialize);
    }

    static SerializationSchema<RowData> open(ChangelogEnvelope envelope, RowType type, Map<String, String> options) {
        // Our option reader strips what only the deserializer reads; the values Flink's factory passes remain.
        JsonFormatOptions o = envelope.jsonOptions(options);
        TimestampFormat timestamps = o.timestampFormat() == JsonFormatOptions.TimestampFormat.SQL
                ? TimestampFormat.SQL : TimestampFormat.ISO_8601;
        MapNullKeyMode mode = MapNullKeyMode.valueOf(o.mapNullKeyMode().name());
        SerializationSchema<RowData> schema = switch (envelope) {
            case DEBEZIUM -> new DebeziumJsonSerializationSchema(type, timestamps, mode, o.mapNullKeyLiteral(),
                    o.decimalAsPlainNumber(), o.ignoreNullFields());
            case CANAL -> new CanalJsonSerializationSchema(type, timestamps, mode, o.mapNullKeyLiteral(),
                    o.decimalAsPlainNumber(), o.ignoreNullFields());
            case MAXWELL -> new MaxwellJsonSerializationSchema(type, timestamps, mode, o.mapNullKeyLiteral(),
                    o.decimalAsPlainNumber(), o.ignoreNullFields());
            case OGG -> new OggJsonSerializationSchema(type, timestamps, mode, o.mapNullKeyLiteral(),
                    o.decimalAsPlainNumber(), o.ignoreNullFields());
        };
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }
}
