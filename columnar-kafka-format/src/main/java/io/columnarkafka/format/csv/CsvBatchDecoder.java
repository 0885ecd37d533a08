package io.columnarkafka.format.csv;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RowPerRecord;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes CSV records into Arrow, value for value what Flink's {@code CsvRowDataDeserializationSchema}
 * (flink-csv 2.2.0) returns for each record: a null record gives no row; the first line is split as
 * Jackson's CSV parser splits it ({@link CsvRecordTokens}) and its values are matched to the columns by
 * position; a record Jackson cannot read, with a value count other than the columns', or with a value
 * Flink's converter rejects fails with the record and column. Under {@code ignore-parse-errors} the
 * first kind of record is skipped, missing values and values that do not parse are null, as in Flink.
 *
 * <p>Planned once (a reader per column); per batch, the records' characters and values go through buffers
 * reused across records. Numbers, dates and times still go through the JDK's parsers on a {@code String},
 * as Flink's do, except integers of plain ASCII digits.
 */
public final class CsvBatchDecoder implements BatchDecoder {
    private final RowType rowType;
    /** The batches' Arrow schema, built once (a root per batch is made from it). */
    private final Schema schema;
    private final CsvFieldReader[] readers;
    private final char[] nullLiteral;
    private final boolean ignoreParseErrors;
    private final CsvRecordChars chars = new CsvRecordChars();
    private final CsvRecordTokens tokens;

    /**
     * Plans a decoder of {@code rowType}'s fields, in order.
     *
     * @throws IllegalArgumentException for a type Flink's CSV format does not read, with Flink's message
     */
    public CsvBatchDecoder(RowType rowType, CsvFormatOptions options) {
        this.rowType = rowType;
        this.schema = ArrowLayout.schema(rowType, timestampLayout());
        CsvReaderPlan plan = new CsvReaderPlan(options);
        this.readers = new CsvFieldReader[rowType.getFieldCount()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = plan.column(rowType.getFieldNames().get(i), rowType.getTypeAt(i));
        }
        this.nullLiteral = options.readNullLiteral() == null ? null : options.readNullLiteral().toCharArray();
        this.ignoreParseErrors = options.ignoreParseErrors();
        this.tokens = new CsvRecordTokens(options, readers.length);
    }

    /** Every digit of the text, as Flink's {@code TimestampData} keeps it whatever the precision. */
    @Override
    public ArrowLayout.NanoTimestamps timestampLayout() {
        return ArrowLayout.NanoTimestamps.EVERY_PRECISION_MILLIS_AND_NANOS;
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        return RowPerRecord.decode(schema, records, allocator, this::bind, this::readRecord);
    }

    private void bind(VectorSchemaRoot root) {
        for (int c = 0; c < readers.length; c++) {
            readers[c].bind(root.getVector(c));
        }
    }

    /**
     * Reads record {@code i} into row {@code row}; false if it is null or was skipped under {@code
     * ignore-parse-errors}.
     */
    private boolean readRecord(RecordBytes records, int i, int row, VectorSchemaRoot root) {
        if (records.isNull(i)) {
            return false;
        }
        String malformed = chars.decode(records.array(i), records.offset(i), records.length(i));
        if (malformed == null) {
            try {
                tokens.read(chars.chars, chars.length);
            } catch (CsvRecordTokens.Malformed e) {
                malformed = e.getMessage();
            }
        }
        if (malformed != null) {
            if (ignoreParseErrors) {
                return false;
            }
            throw new DecodeException(i, null, malformed);
        }
        int values = tokens.count;
        if (values < readers.length && !ignoreParseErrors) { // Jackson already refused more values
            throw new DecodeException(i, null,
                    "Row length mismatch. " + readers.length + " fields expected but was " + values + ".");
        }
        char[] text = tokens.text;
        for (int c = 0; c < readers.length; c++) {
            CsvFieldReader reader = readers[c];
            if (c >= values) {
                reader.setNull(row);
                continue;
            }
            int start = tokens.starts[c];
            int end = tokens.ends[c];
            if (nullLiteral != null && !reader.splitsValue()
                    && Arrays.equals(text, start, end, nullLiteral, 0, nullLiteral.length)) {
                reader.setNull(row);
                continue;
            }
            try {
                reader.read(text, start, end, row);
            } catch (CsvFieldReader.NestedFieldFailure e) {
                throw new DecodeException(i, e.path, e.getMessage(), e.getCause());
            } catch (RuntimeException e) {
                if (!ignoreParseErrors) {
                    throw new DecodeException(i, reader.path, "Fail to deserialize at field: " + reader.path + ". " + e, e);
                }
                reader.setNull(row);
            }
        }
        return true;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }
}
