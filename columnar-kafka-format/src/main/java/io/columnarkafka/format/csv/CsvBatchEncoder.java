package io.columnarkafka.format.csv;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Encodes Arrow batches as CSV records, byte for byte what Flink's {@code CsvRowDataSerializationSchema}
 * (flink-csv 2.2.0) writes for the same rows: one line per row without a line terminator, columns in
 * projection order joined by the field delimiter, a null as the null literal, text values quoted by
 * Jackson's rules ({@link CsvQuoting}).
 *
 * <p>Built once: a typed writer per column. Per batch, each writer is bound to its vector and the rows
 * are written with no per-row objects. A string is checked for quoting in the Arrow buffer and copied
 * once; other text values are written unquoted, then checked in place and quoted only if they need it.
 */
public final class CsvBatchEncoder implements BatchEncoder {
    /** Output bytes per byte of Arrow buffers, for the first size estimate of a batch. */
    private static final long BYTES_PER_ARROW_BYTE = 2;

    private final Projection projection;
    private final CsvValueWriter[] writers;
    private final CsvQuoting quoting;
    private final byte[] fieldDelimiter;
    private final byte[] nullLiteral;
    private final RecordSlab slab = new RecordSlab();
    private final ByteOutput out = new ByteOutput();

    /**
     * Plans an encoder for {@code projection}.
     *
     * @throws IllegalArgumentException for a type Flink's CSV format does not support (MAP, MULTISET,
     *     ARRAY or ROW inside ARRAY or ROW, ...), with Flink's message
     */
    public CsvBatchEncoder(Projection projection, CsvFormatOptions options) {
        this.projection = projection;
        CsvBytes bytes = new CsvBytes(options);
        this.quoting = new CsvQuoting(options);
        CsvWriterPlan plan = new CsvWriterPlan(options, bytes, quoting);
        this.writers = new CsvValueWriter[projection.fieldCount()];
        for (int i = 0; i < writers.length; i++) {
            ArrowLayout.field(projection.name(i), projection.type(i));
            writers[i] = plan.column(projection.name(i), projection.type(i));
        }
        this.fieldDelimiter = bytes.fieldDelimiter;
        this.nullLiteral = bytes.nullLiteral;
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch) {
        try {
            ArrowLayout.check(projection.batchType(), batch);
            int rows = batch.getRowCount();
            long arrowBytes = 0;
            for (int i = 0; i < writers.length; i++) {
                FieldVector vector = batch.getVector(projection.field(i));
                writers[i].bind(vector, rows);
                arrowBytes += vector.getBufferSize();
            }
            long estimate = arrowBytes * BYTES_PER_ARROW_BYTE + (long) rows * writers.length;
            slab.reset(rows, Math.min(estimate, Integer.MAX_VALUE));
            out.begin(slab);
            for (int row = 0; row < rows; row++) {
                out.startRecord(row);
                writeRow(row);
                out.endRecord();
            }
            return slab;
        } catch (RuntimeException e) {
            // BatchLayoutException, EncodeException, or a batch too large for one array: hand out nothing.
            slab.clear();
            throw e;
        }
    }

    private void writeRow(int row) {
        for (int f = 0; f < writers.length; f++) {
            if (f > 0) {
                out.writeBytes(fieldDelimiter);
            }
            CsvValueWriter writer = writers[f];
            if (writer.isNull(row)) {
                out.writeBytes(nullLiteral);
            } else {
                writer.writeField(out, row, quoting);
            }
        }
    }

    @Override
    public Projection projection() {
        return projection;
    }
}
