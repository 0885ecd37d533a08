package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowByRowBatchEncoder;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.avro.Schema;

/**
 * Encodes Arrow batches as Avro binary records, byte for byte what Flink 2.2.1's {@code
 * AvroRowDataSerializationSchema} writes for the same rows: the datum of the writer schema {@link
 * AvroSchemas} derives from the projection's row type, with no container header and no schema id. If the
 * row type itself is nullable, Flink's schema is the union {@code ["null", record]} and every record starts
 * with the union branch 1 (byte {@code 0x02}).
 *
 * <p>Built once: the schema is derived (rejecting what Flink rejects) and a typed writer chosen per column.
 * Per batch, each writer is bound to its vector and the rows are written one record at a time with no
 * per-row objects.
 */
public final class AvroBatchEncoder extends RowByRowBatchEncoder {
    /** Output bytes per byte of Arrow buffers, for the first size estimate of a batch. */
    private static final long BYTES_PER_ARROW_BYTE = 2;

    private final Schema schema;
    private final AvroValueWriter[] writers;
    private final boolean recordInUnion;
    /** Bytes written before each record's datum: none for plain Avro, the registry framing otherwise. */
    private byte[] prefix = new byte[0];

    /**
     * Plans an encoder for {@code projection}.
     *
     * @throws IllegalArgumentException or {@link UnsupportedOperationException} for a type Flink's Avro
     *     format rejects (e.g. TIMESTAMP(6) under the legacy mapping, a map with non-string keys) or that has
     *     no Arrow layout
     */
    public AvroBatchEncoder(Projection projection, AvroFormatOptions options) {
        super(projection);
        this.schema = AvroSchemas.derive(projection.outputType(), options.legacyTimestampMapping());
        this.recordInUnion = projection.outputType().isNullable();
        List<AvroValueWriter> fields = AvroWriterPlan.fields("", projection.outputType());
        this.writers = fields.toArray(new AvroValueWriter[0]);
    }

    /** The Avro writer schema, as Flink derives it (what a schema registry is given). */
    public Schema schema() {
        return schema;
    }

    @Override
    protected void bindColumn(int field, FieldVector vector, int rows) {
        writers[field].bind(vector, rows);
    }

    @Override
    protected long estimateBytes(long arrowBytes, int rows) {
        return arrowBytes * BYTES_PER_ARROW_BYTE + (long) rows * (1 + prefix.length);
    }

    @Override
    protected void writeRecord(ByteOutput out, int row) {
        out.writeBytes(prefix);
        if (recordInUnion) {
            out.writeByte((byte) 2);
        }
        for (AvroValueWriter writer : writers) {
            writer.writeField(out, row);
        }
    }

    /** Sets the bytes written before every record from the next batch on (e.g. a schema-registry header). */
    void prefix(byte[] bytes) {
        prefix = bytes.clone();
    }
}
