package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.SchemaCheck;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

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
public final class JsonBatchEncoder implements BatchEncoder {
    /** Output bytes per byte of Arrow buffers, for the first size estimate of a batch. */
    private static final long BYTES_PER_ARROW_BYTE = 3;

    private final Projection projection;
    private final JsonFields record;
    private final SchemaCheck layout;
    private final RecordSlab slab = new RecordSlab();
    private final ByteOutput out = new ByteOutput();

    /**
     * Plans an encoder for {@code projection}.
     *
     * @throws IllegalArgumentException if a projected type has no Arrow layout or is not supported by
     *     Flink's JSON format (e.g. a map whose keys are not strings)
     */
    public JsonBatchEncoder(Projection projection, JsonFormatOptions options) {
        this.projection = projection;
        this.layout = new SchemaCheck(projection.batchType());
        JsonWriterPlan plan = new JsonWriterPlan(options);
        List<String> names = new ArrayList<>(projection.fieldCount());
        List<JsonValueWriter> writers = new ArrayList<>(projection.fieldCount());
        for (int i = 0; i < projection.fieldCount(); i++) {
            ArrowLayout.field(projection.name(i), projection.type(i));
            names.add(projection.name(i));
            writers.add(plan.writer(projection.name(i), projection.type(i)));
        }
        this.record = new JsonFields(names, writers, options.ignoreNullFields());
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch) {
        try {
            layout.check(batch);
            int rows = batch.getRowCount();
            long arrowBytes = 0;
            for (int i = 0; i < record.size(); i++) {
                FieldVector vector = batch.getVector(projection.field(i));
                record.bind(i, vector, rows);
                arrowBytes += vector.getBufferSize();
            }
            long estimate = arrowBytes * BYTES_PER_ARROW_BYTE + (long) rows * record.nameBytes();
            slab.reset(rows, Math.min(estimate, Integer.MAX_VALUE));
            out.begin(slab);
            for (int row = 0; row < rows; row++) {
                out.startRecord(row);
                record.write(out, row);
                out.endRecord();
            }
            return slab;
        } catch (RuntimeException e) {
            // BatchLayoutException, EncodeException, or a batch too large for one array: hand out nothing.
            slab.clear();
            throw e;
        }
    }

    @Override
    public Projection projection() {
        return projection;
    }
}
