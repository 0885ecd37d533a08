package io.columnarkafka.bench;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.avro.AvroFormatOptions.AvroEncoding;
import org.apache.flink.formats.avro.AvroRowDataDeserializationSchema;
import org.apache.flink.formats.avro.AvroRowDataSerializationSchema;
import org.apache.flink.formats.avro.AvroToRowDataConverters;
import org.apache.flink.formats.avro.RegistryAvroDeserializationSchema;
import org.apache.flink.formats.avro.RegistryAvroSerializationSchema;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.SchemaCoder;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode;
import org.apache.flink.formats.json.canal.CanalJsonSerializationSchema;
import org.apache.flink.formats.json.debezium.DebeziumJsonSerializationSchema;
import org.apache.flink.formats.json.maxwell.MaxwellJsonSerializationSchema;
import org.apache.flink.formats.json.ogg.OggJsonSerializationSchema;
import org.apache.flink.formats.protobuf.PbFormatConfig;
import org.apache.flink.formats.protobuf.serialize.PbRowDataSerializationSchema;
import org.apache.flink.formats.raw.RawFormatSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's own serializer of each format, the baseline: built as the format's factory builds it for a
 * table with the given format options, then opened as a sink opens it before the first record.
 */
final class FlinkSerializers {
    private FlinkSerializers() {}

    /**
     * The opened serializer of {@code format} for rows of {@code rowType} (the type Flink's sink passes).
     *
     * @param options the format options the columnar encoder gets (Flink's keys without the prefix)
     * @param schemaId the id {@code avro-confluent} writes, as Flink's registry coder would after registering
     */
    static SerializationSchema<RowData> open(String format, RowType rowType, Map<String, String> options,
            int schemaId) throws Exception {
        if (format.equals("json")) {
            return FlinkJson.openSerializer(rowType);
        }
        SerializationSchema<RowData> schema = switch (format) {
            case "csv" -> new CsvRowDataSerializationSchema.Builder(rowType).build();
            // Binary encoding; the legacy timestamp mapping is the avro format's default (true).
            case "avro" -> new AvroRowDataSerializationSchema(rowType, AvroEncoding.BINARY, true);
            // As Flink's avro-confluent factory builds it, with a registry coder of a fixed id.
            case "avro-confluent" -> new AvroRowDataSerializationSchema(rowType,
                    new RegistryAvroSerializationSchema<>(GenericRecord.class,
                            AvroSchemaConverter.convertToSchema(rowType), new FixedIdCoder(schemaId, null)),
                    RowDataToAvroConverters.createConverter(rowType));
            case "debezium-json" -> new DebeziumJsonSerializationSchema(
                    rowType, TimestampFormat.SQL, MapNullKeyMode.FAIL, "null", false, false);
            case "canal-json" -> new CanalJsonSerializationSchema(
                    rowType, TimestampFormat.SQL, MapNullKeyMode.FAIL, "null", false, false);
            case "maxwell-json" -> new MaxwellJsonSerializationSchema(
                    rowType, TimestampFormat.SQL, MapNullKeyMode.FAIL, "null", false, false);
            case "ogg-json" -> new OggJsonSerializationSchema(
                    rowType, TimestampFormat.SQL, MapNullKeyMode.FAIL, "null", false, false);
            case "protobuf" -> new PbRowDataSerializationSchema(rowType,
                    new PbFormatConfig(options.get("message-class-name"), false, false, ""));
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

    /**
     * Flink's {@code avro-confluent} deserializer of {@code rowType} as its factory builds it ({@code
     * AvroRowDataDeserializationSchema} over {@code RegistryAvroDeserializationSchema} with the reader schema of
     * the row type), opened, with a registry coder that knows one id: {@code schemaId}, whose writer schema is the
     * reader's (what Flink's serializer of the same row type registers).
     */
    static DeserializationSchema<RowData> openAvroConfluentDeserializer(RowType rowType, int schemaId)
            throws Exception {
        Schema schema = AvroSchemaConverter.convertToSchema(rowType);
        DeserializationSchema<RowData> deserializer = new AvroRowDataDeserializationSchema(
                new RegistryAvroDeserializationSchema<>(GenericRecord.class, schema, new FixedIdCoder(schemaId, schema)),
                AvroToRowDataConverters.createRowConverter(rowType), InternalTypeInfo.of(rowType));
        deserializer.open(null); // builds the Avro reader; does not read the context
        return deserializer;
    }

    /**
     * Writes the Confluent header as Flink's {@code ConfluentSchemaRegistryCoder} does once its registry
     * client has the id: the magic byte 0, then the id as a big-endian int; reads it as that coder does once its
     * client has cached the id's schema (the magic byte checked, the id read, its schema returned).
     */
    private static final class FixedIdCoder implements SchemaCoder, SchemaCoder.SchemaCoderProvider {
        private static final long serialVersionUID = 1L;
        private final int id;
        /** The writer schema of {@link #id}; null for a coder that only writes. */
        private final transient Schema schema;

        FixedIdCoder(int id, Schema schema) {
            this.id = id;
            this.schema = schema;
        }

        @Override
        public SchemaCoder get() {
            return this;
        }

        @Override
        public Schema readSchema(InputStream in) throws IOException {
            DataInputStream header = new DataInputStream(in);
            if (header.readByte() != 0) {
                throw new IOException("Unknown data format. Magic number does not match");
            }
            int read = header.readInt();
            if (schema == null || read != id) {
                throw new IOException("Could not find schema with id " + read + " in registry");
            }
            return schema;
        }

        @Override
        public void writeSchema(Schema schema, OutputStream out) throws IOException {
            DataOutputStream data = new DataOutputStream(out);
            data.writeByte(0);
            data.writeInt(id);
            data.flush();
        }
    }
}
