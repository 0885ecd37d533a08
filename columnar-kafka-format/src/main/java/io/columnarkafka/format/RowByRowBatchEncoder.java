package io.columnarkafka.format;

import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.SchemaCheck;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The encode loop of every format that writes one record per row: check the batch's layout, bind each
 * projected column to its vector (buffer addresses and sizes read once per batch), size the slab from the
 * batch's Arrow footprint, then write the rows one record at a time. If anything fails on the way the
 * slab hands out nothing of the batch. Subclasses say how a column is bound and a record written.
 */
public abstract class RowByRowBatchEncoder implements BatchEncoder {
    protected final Projection projection;
    private final SchemaCheck layout;
    private final RecordSlab slab;
    private final ByteOutput out = new ByteOutput();

    /**
     * @throws IllegalArgumentException if a projected type has no Arrow layout
     */
    protected RowByRowBatchEncoder(Projection projection) {
        this(projection, RecordSlab.MAX_CAPACITY);
    }

    /**
     * An encoder whose batches may take at most {@code maxBatchBytes} encoded bytes (see {@link
     * RecordSlab#RecordSlab(int)}); a larger batch fails with {@link BatchTooLargeException} and hands out nothing.
     *
     * @throws IllegalArgumentException if a projected type has no Arrow layout
     */
    protected RowByRowBatchEncoder(Projection projection, int maxBatchBytes) {
        this.projection = projection;
        this.slab = new RecordSlab(maxBatchBytes);
        this.layout = new SchemaCheck(projection.batchType());
        for (int i = 0; i < projection.fieldCount(); i++) {
            ArrowLayout.field(projection.name(i), projection.type(i));
        }
    }

    @Override
    public final RecordSlab encode(VectorSchemaRoot batch) {
        return encode(batch, null, batch.getRowCount());
    }

    /** {@inheritDoc} A null {@code selected} selects rows {@code [0, count)}. */
    @Override
    public final RecordSlab encode(VectorSchemaRoot batch, int[] selected, int count) {
        try {
            layout.check(batch);
            int rows = batch.getRowCount();
            long arrowBytes = 0;
            for (int i = 0; i < projection.fieldCount(); i++) {
                FieldVector vector = batch.getVector(projection.field(i));
                bindColumn(i, vector, rows);
                arrowBytes += vector.getBufferSize();
            }
            bindBatch(batch, rows);
            slab.reset(count, Math.min(estimateBytes(arrowBytes, rows), Integer.MAX_VALUE));
            out.begin(slab);
            for (int k = 0; k < count; k++) {
                int row = selected == null ? k : selected[k];
                out.startRecord(row);
                writeRecord(out, row);
                out.endRecord();
            }
            return slab;
        } catch (RuntimeException e) {
            // BatchLayoutException, EncodeException or BatchTooLargeException: hand out nothing.
            slab.clear();
            throw e;
        }
    }

    /** Binds the writer of projected column {@code field} to its vector for rows {@code [0, rows)}. */
    protected abstract void bindColumn(int field, FieldVector vector, int rows);

    /** Binds whatever else a record reads from the batch, beyond the projected columns; nothing by default. */
    protected void bindBatch(VectorSchemaRoot batch, int rows) {}

    /** A first estimate of the batch's output bytes; the slab grows geometrically past it. */
    protected abstract long estimateBytes(long arrowBytes, int rows);

    /** Writes row {@code row} of the bound batch as one record. */
    protected abstract void writeRecord(ByteOutput out, int row);

    @Override
    public final Projection projection() {
        return projection;
    }
}
