package io.columnarkafka.format.avro.parity;

import io.columnarkafka.format.parity.DecoderParityCheck;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.avro.AvroRowDataDeserializationSchema;
import org.apache.flink.formats.avro.AvroRowDataSerializationSchema;
import org.apache.flink.formats.avro.AvroToRowDataConverters;
import org.apache.flink.formats.avro.RegistryAvroDeserializationSchema;
import org.apache.flink.formats.avro.RegistryAvroSerializationSchema;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.SchemaCoder;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink 2.2.1's {@code avro-confluent} serializer and deserializer as {@code RegistryAvroFormatFactory} builds them:
 * {@code AvroRowDataSerializationSchema(rowType, RegistryAvroSerializationSchema, RowDataToAvroConverters
 * .createConverter(rowType))} and {@code AvroRowDataDeserializationSchema(RegistryAvroDeserializationSchema(
 * GenericRecord, convertToSchema(rowType), coder), AvroToRowDataConverters.createRowConverter(rowType), typeInfo)}.
 * {@code ConfluentRegistryAvroSerializationSchema} and {@code ...DeserializationSchema} only add factory methods to
 * these flink-avro classes; what they add that cannot run here is {@code ConfluentSchemaRegistryCoder} over
 * Confluent's client (not on Maven Central), so {@link RegistryCoder} does what that coder's {@code readSchema} and
 * {@code writeSchema} do (the wire format: magic byte 0, the 4-byte big-endian id, then the body; Flink's two
 * messages), with {@link TestSchemaRegistry} in place of {@code CachedSchemaRegistryClient} (whose {@code getById}
 * parses the fetched text with Avro's parser, defaults unvalidated, and caches it by id).
 */
public final class FlinkAvroConfluentOracle {
    private FlinkAvroConfluentOracle() {}

    /** Flink's {@code ConfluentSchemaRegistryCoder} over the test registry. */
    static final class RegistryCoder implements SchemaCoder {
        private final TestSchemaRegistry registry;
        private final String subject;
        private final Map<Integer, Schema> byId = new HashMap<>();

        RegistryCoder(TestSchemaRegistry registry, String subject) {
            this.registry = registry;
            this.subject = subject;
        }

        @Override
        public Schema readSchema(InputStream in) throws IOException {
            DataInputStream header = new DataInputStream(in);
            if (header.readByte() != 0) {
                throw new IOException("Unknown data format. Magic number does not match");
            }
            int schemaId = header.readInt();
            Schema schema = byId.get(schemaId);
            if (schema == null) {
                String text = registry.schemaText(schemaId);
                if (text == null) { // Confluent's client: RestClientException 40403
                    throw new IOException(String.format("Could not find schema with id %s in registry", schemaId));
                }
                schema = new Schema.Parser().setValidateDefaults(false).parse(text);
                byId.put(schemaId, schema);
            }
            return schema;
        }

        @Override
        public void writeSchema(Schema schema, OutputStream out) throws IOException {
            int registeredId = registry.preRegister(subject, schema.toString());
            out.write(0);
            out.write(ByteBuffer.allocate(4).putInt(registeredId).array());
        }
    }

    /** Flink's serializer of {@code rowType}, registering its schema under {@code subject}. */
    public static AvroRowDataSerializationSchema serializer(TestSchemaRegistry registry, String subject,
            RowType rowType) {
        AvroRowDataSerializationSchema schema = new AvroRowDataSerializationSchema(rowType,
                new RegistryAvroSerializationSchema<GenericRecord>(GenericRecord.class,
                        AvroSchemaConverter.convertToSchema(rowType), () -> new RegistryCoder(registry, subject)),
                RowDataToAvroConverters.createConverter(rowType));
        try {
            schema.open(null); // builds the Avro writer; does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /** Flink's deserializer of {@code rowType}. */
    public static DeserializationSchema<RowData> deserializer(TestSchemaRegistry registry, RowType rowType) {
        return deserializer(registry, rowType, null);
    }

    /**
     * Flink's deserializer of {@code rowType} with the option {@code avro-confluent.schema} = {@code schemaText} (null:
     * not set). {@code RegistryAvroFormatFactory.createRuntimeDecoder} cannot run here (its {@code
     * ConfluentRegistryAvroDeserializationSchema.forGeneric} constructs Confluent's {@code CachedSchemaRegistryClient},
     * not on Maven Central), so its reader schema step, {@code getAvroSchema(schemaString, rowType)}, is transcribed
     * line for line over Flink's own {@code AvroSchemaConverter}: the text converted to a data type, made NOT NULL if
     * nullable, compared with the row type (Flink's {@code IllegalArgumentException} when it differs), then parsed
     * with Avro's default parser.
     */
    public static DeserializationSchema<RowData> deserializer(TestSchemaRegistry registry, RowType rowType,
            String schemaText) {
        Schema reader = schemaText == null ? AvroSchemaConverter.convertToSchema(rowType) : readerSchema(schemaText, rowType);
        AvroRowDataDeserializationSchema schema = new AvroRowDataDeserializationSchema(
                new RegistryAvroDeserializationSchema<GenericRecord>(GenericRecord.class, reader,
                        () -> new RegistryCoder(registry, null)),
                AvroToRowDataConverters.createRowConverter(rowType), InternalTypeInfo.of(rowType));
        try {
            schema.open(null); // builds the Avro reader; does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /** {@code RegistryAvroFormatFactory.getAvroSchema} of Flink 2.2.1. */
    static Schema readerSchema(String schemaString, RowType rowType) {
        LogicalType converted = AvroSchemaConverter.convertToDataType(schemaString).getLogicalType();
        if (converted.isNullable()) {
            converted = converted.copy(false);
        }
        if (!converted.equals(rowType)) {
            throw new IllegalArgumentException(String.format(
                    "Schema provided for '%s' format does not match the table schema: %s", "avro-confluent", schemaString));
        }
        return new Schema.Parser().parse(schemaString);
    }

    /**
     * The parity check of the {@code avro-confluent} decoder against Flink's deserializer, a new one per record (as
     * for {@code avro}: Flink's buffered decoder would read a record's unread trailing bytes as the next one's), maps
     * in order.
     */
    public static DecoderParityCheck decodeCheck(TestSchemaRegistry registry) {
        return new DecoderParityCheck("avro-confluent", (type, options) -> deserializer(registry, type,
                options.getOrDefault("schema", options.get("schema-registry.schema"))), true, true);
    }
}
