package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.Arrays;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Encodes Arrow batches as protobuf messages, byte for byte what Flink's {@code PbRowDataSerializationSchema}
 * writes for the same rows: the message {@code message-class-name} names, with the set fields in field
 * number order, as its generated builder and {@code toByteArray()} produce them.
 *
 * <p>Built once: the message class's descriptor is read and a writer chosen per column, with its tag bytes
 * precomputed. Per batch, each writer is bound to its vector and the rows are written one record at a time
 * with no per-row objects (except maps whose order needs a real HashMap, see {@link PbMapWriter}).
 */
public final class ProtobufBatchEncoder implements BatchEncoder {
    /** Output bytes per byte of Arrow buffers, for the first size estimate of a batch. */
    private static final long BYTES_PER_ARROW_BYTE = 2;

    private final Projection projection;
    private final PbMessageFields fields;
    /** The fast path for a message of numbers and strings, or null. */
    private final PbFlatMessage flat;
    private final FieldVector[] vectors;
    private final RecordSlab slab = new RecordSlab();
    private final ByteOutput out = new ByteOutput();

    /**
     * Plans an encoder for {@code projection}.
     *
     * @throws IllegalArgumentException if the message class cannot be loaded, a column names no field of
     *     the message, or a column's type does not fit its field
     */
    public ProtobufBatchEncoder(Projection projection, ProtobufFormatOptions options) {
        this.projection = projection;
        for (int i = 0; i < projection.fieldCount(); i++) {
            ArrowLayout.field(projection.name(i), projection.type(i));
        }
        Descriptor descriptor = options.descriptor();
        this.fields = new PbWriterPlan(options.writeNullStringLiteral())
                .fields("", descriptor, projection.outputType());
        this.flat = fields.flat();
        this.vectors = new FieldVector[projection.fieldCount()];
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch) {
        return encode(batch, null, batch.getRowCount());
    }

    /** {@inheritDoc} A null {@code selected} selects rows {@code [0, count)}. */
    @Override
    public RecordSlab encode(VectorSchemaRoot batch, int[] selected, int count) {
        try {
            ArrowLayout.check(projection.batchType(), batch);
            int rows = batch.getRowCount();
            long arrowBytes = 0;
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] = batch.getVector(projection.field(i));
                arrowBytes += vectors[i].getBufferSize();
            }
            fields.bindColumns(vectors, rows);
            slab.reset(count, Math.min(arrowBytes * BYTES_PER_ARROW_BYTE + rows, Integer.MAX_VALUE));
            out.begin(slab);
            if (selected == null && flat != null && flat.writeBatch(out, rows)) {
                return slab;
            }
            for (int k = 0; k < count; k++) {
                int row = selected == null ? k : selected[k];
                out.startRecord(row);
                fields.write(out, row);
                out.endRecord();
            }
            return slab;
        } catch (RuntimeException e) {
            // BatchLayoutException, EncodeException or BatchTooLargeException: hand out nothing.
            slab.clear();
            throw e;
        } finally {
            Arrays.fill(vectors, null);
        }
    }

    @Override
    public Projection projection() {
        return projection;
    }
}
