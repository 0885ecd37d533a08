package io.columnarkafka.format.avro;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RowPerRecord;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes records in the Confluent wire format as Flink 2.2.1's {@code avro-confluent} format reads them ({@code
 * AvroRowDataDeserializationSchema} over {@code ConfluentRegistryAvroDeserializationSchema}): the magic byte {@code
 * 0}, the writer schema's id as a 4-byte big-endian int, then the Avro binary datum, read with the writer schema of
 * that id against the reader schema: Flink's {@code RegistryAvroFormatFactory} derives it from the row type ({@link
 * AvroSchemas}, legacy timestamp mapping) or, given the option {@code schema}, parses that text (validating defaults)
 * after checking that Flink converts it to the row type ({@link AvroSchemas#flinkType}). A null record gives no row. A record that is empty or shorter than its header, has another magic byte,
 * names an id the registry does not know, or whose datum Avro cannot read or resolve fails with a {@link
 * DecodeException} naming the record (and the field); the batch is then freed whole.
 *
 * <p>Each id's writer schema is fetched once per decoder ({@code GET /schemas/ids/{id}}, retried as the encoder's
 * registry calls are) and planned once ({@link WriterResolution}): the schema Flink's or this project's encoder
 * registers for the row type reads through the plain {@code avro} readers; another schema through Avro's resolution
 * rules. A registry that stays unreachable fails the batch with an {@link IllegalStateException} naming the registry,
 * the id and the record. Bytes after the datum are ignored (Flink's buffered decoder would read them as the start of
 * the next record: the {@code avro} format's known difference).
 */
public final class AvroConfluentBatchDecoder implements BatchDecoder {
    private static final int HEADER = 5;

    private final RowType rowType;
    private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;
    private final Schema readerSchema;
    /** The reader schema is the one Flink derives from the row type, the plain readers' (no {@code schema}). */
    private final boolean derivedReader;
    private final SchemaRegistryClient registry;
    private final Map<Integer, WriterResolution> writers = new HashMap<>();
    private final AvroInput in = new AvroInput();
    /** The id of the previous record and its plan: records of one id look no map up (and box no id). */
    private int lastId = -1;
    private WriterResolution last;
    /** Counts batches, so each plan is bound to a batch's vectors once ({@link WriterResolution#boundBatch}). */
    private int batch;

    public AvroConfluentBatchDecoder(RowType rowType, AvroConfluentFormatOptions options) {
        this(rowType, options, RegistryRetries.DEFAULT);
    }

    /**
     * A decoder whose registry client retries as {@code retries} says (tests shorten the waits).
     *
     * @throws IllegalArgumentException for a type Flink's Avro format refuses, a nullable row type (Flink's Kafka
     *     connector hands its formats the row NOT NULL), or a {@code schema} Flink refuses (no Avro schema, invalid
     *     defaults, or a type other than the row type); also for a row type Flink would only read with a {@code
     *     schema} but the decoder does not (one {@link AvroSchemas#derive} refuses, e.g. TIMESTAMP(6))
     */
    AvroConfluentBatchDecoder(RowType rowType, AvroConfluentFormatOptions options, RegistryRetries retries) {
        if (rowType.isNullable()) {
            throw new IllegalArgumentException("avro-confluent decodes NOT NULL rows (the Kafka connector's): write "
                    + rowType.asSummaryString() + " NOT NULL");
        }
        Schema derived = AvroSchemas.derive(rowType, true);
        AvroReaderPlan.fields("", rowType); // refuses what the readers cannot read, at planning
        this.readerSchema = options.schema() == null ? derived : givenReaderSchema(options.schema(), rowType);
        this.derivedReader = readerSchema.equals(derived);
        this.rowType = rowType;
        this.arrowSchema = ArrowLayout.schema(rowType);
        this.registry = new SchemaRegistryClient(options, retries);
    }

    /**
     * The reader schema of the option {@code schema} as Flink's {@code RegistryAvroFormatFactory.getAvroSchema} takes
     * it: converted to a Flink type (NOT NULL at the top), which must equal the row type, then parsed with Avro's
     * default parser (defaults validated).
     */
    private static Schema givenReaderSchema(String text, RowType rowType) {
        Schema schema;
        try {
            schema = new Schema.Parser().parse(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("avro-confluent option 'schema': Could not parse Avro schema string. "
                    + e.getMessage(), e);
        }
        if (!AvroSchemas.flinkType(schema).copy(false).equals(rowType)) {
            throw new IllegalArgumentException("Schema provided for 'avro-confluent' format does not match the table"
                    + " schema: " + text);
        }
        return schema;
    }

    /** The reader schema: Flink's {@code AvroSchemaConverter.convertToSchema} of the row type, or the given one. */
    public Schema readerSchema() {
        return readerSchema;
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        // Each writer's plan binds to the batch's vectors on its first record in the batch.
        return RowPerRecord.decode(arrowSchema, records, allocator, root -> batch++, this::readRecord);
    }

    /** Reads record {@code i} into row {@code row}; a null record gives none. */
    private boolean readRecord(RecordBytes records, int i, int row, VectorSchemaRoot root) {
        if (records.isNull(i)) {
            return false;
        }
        byte[] bytes = records.array(i);
        int offset = records.offset(i);
        int length = records.length(i);
        if (length == 0) {
            throw new DecodeException(i, null, "the record is empty: no magic byte (EOFException)");
        }
        if (bytes[offset] != 0) {
            throw new DecodeException(i, null, "Unknown data format. Magic number does not match (byte "
                    + (bytes[offset] & 0xFF) + ", not 0)");
        }
        if (length < HEADER) {
            throw new DecodeException(i, null, "the record ends inside its 4-byte schema id (EOFException)");
        }
        int id = (bytes[offset + 1] & 0xFF) << 24 | (bytes[offset + 2] & 0xFF) << 16
                | (bytes[offset + 3] & 0xFF) << 8 | (bytes[offset + 4] & 0xFF);
        WriterResolution writer = writer(id, i, root);
        in.reset(bytes, offset + HEADER, length - HEADER);
        try {
            writer.read(in, row);
            return true;
        } catch (AvroInput.Malformed | NumberFormatException e) {
            throw new DecodeException(i, writer.failedField(), e.getMessage() + " (writer schema id " + id + ")", e);
        }
    }

    /** The plan of writer schema {@code id}, fetched and planned on its first record. */
    private WriterResolution writer(int id, int record, VectorSchemaRoot root) {
        WriterResolution writer = id == lastId && last != null ? last : writers.get(id);
        if (writer == null) {
            String text;
            try {
                text = registry.schema(id);
            } catch (IllegalStateException e) {
                throw new IllegalStateException("record " + record + ": " + e.getMessage(), e);
            }
            if (text == null) {
                throw new DecodeException(record, null, "Could not find schema with id " + id + " in registry");
            }
            Schema schema;
            try {
                // Confluent's client parses the schemas it fetches without validating defaults
                schema = new Schema.Parser().setValidateDefaults(false).parse(text);
            } catch (RuntimeException e) {
                throw new DecodeException(record, null, "the registry's schema id " + id + " is no Avro schema: "
                        + e.getMessage(), e);
            }
            writer = WriterResolution.plan(schema, readerSchema, derivedReader, rowType);
            writers.put(id, writer);
        }
        if (writer.boundBatch != batch) {
            writer.bind(root.getFieldVectors());
            writer.boundBatch = batch;
        }
        lastId = id;
        last = writer;
        return writer;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }
}
