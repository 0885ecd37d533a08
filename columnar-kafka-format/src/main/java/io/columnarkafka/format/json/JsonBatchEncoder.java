package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowByRowBatchEncoder;
import org.apache.arrow.vector.FieldVector;

/**
 * Encodes Arrow batches as JSON records, byte for byte what Flink 2.2.1's {@code
 * JsonRowDataSerializationSchema} writes for the same rows: one JSON object per row, fields in
 * projection order, no whitespace.
 *
 * <p>Built once: the projected types are validated and a typed writer is chosen per column, with each
 * field's {@code "name":} bytes escaped in advance. Per batch, each writer is bound to its vector (buffer
 * addresses read and sizes checked once), the slab is sized from the batch's Arrow footprint, and the
 * rows are written one record at a time with no per-row objects.
 */
public final class JsonBatchEncoder extends RowByRowBatchEncoder {
    /** Output bytes per byte of Arrow buffers, for the first size estimate of a batch. */
    private static final long BYTES_PER_ARROW_BYTE = 3;

    private final JsonFields record;

    /**
     * Plans an encoder for {@code projection}.
     *
     * @throws IllegalArgumentException if a projected type has no Arrow layout or is not supported by
     *     Flink's JSON format (e.g. a map whose keys are not strings)
     */
    public JsonBatchEncoder(Projection projection, JsonFormatOptions options) {
        super(projection);
        this.record = new JsonWriterPlan(options).record(projection);
    }

    @Override
    protected void bindColumn(int field, FieldVector vector, int rows) {
        record.bind(field, vector, rows);
    }

    @Override
    protected long estimateBytes(long arrowBytes, int rows) {
        return arrowBytes * BYTES_PER_ARROW_BYTE + (long) rows * record.nameBytes();
    }

    @Override
    protected void writeRecord(ByteOutput out, int row) {
        record.write(out, row);
    }
}
