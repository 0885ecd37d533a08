package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowByRowBatchEncoder;
import org.apache.arrow.vector.FieldVector;

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
public final class CsvBatchEncoder extends RowByRowBatchEncoder {
    /** Output bytes per byte of Arrow buffers, for the first size estimate of a batch. */
    private static final long BYTES_PER_ARROW_BYTE = 2;

    private final CsvValueWriter[] writers;
    private final CsvQuoting quoting;
    private final byte[] fieldDelimiter;
    private final byte[] nullLiteral;

    /**
     * Plans an encoder for {@code projection}.
     *
     * @throws IllegalArgumentException for a type Flink's CSV format does not support (MAP, MULTISET,
     *     ARRAY or ROW inside ARRAY or ROW, ...), with Flink's message
     */
    public CsvBatchEncoder(Projection projection, CsvFormatOptions options) {
        super(projection);
        CsvBytes bytes = new CsvBytes(options);
        this.quoting = new CsvQuoting(options);
        CsvWriterPlan plan = new CsvWriterPlan(options, bytes, quoting);
        this.writers = new CsvValueWriter[projection.fieldCount()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = plan.column(projection.name(i), projection.type(i));
        }
        this.fieldDelimiter = bytes.fieldDelimiter;
        this.nullLiteral = bytes.nullLiteral;
    }

    @Override
    protected void bindColumn(int field, FieldVector vector, int rows) {
        writers[field].bind(vector, rows);
    }

    @Override
    protected long estimateBytes(long arrowBytes, int rows) {
        return arrowBytes * BYTES_PER_ARROW_BYTE + (long) rows * writers.length;
    }

    @Override
    protected void writeRecord(ByteOutput out, int row) {
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
}
