package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;

/**
 * ARRAY (Arrow List or LargeList) and ROW (Arrow Struct) as one text value: the elements (or fields)
 * unquoted, a null one as the null literal, joined by {@code array-element-delimiter} (one char, as
 * Flink's options require). This is how
 * Jackson's CSV generator writes an array node; quoting then applies to the joined text as a whole.
 */
abstract class JoinedCsvWriter extends CsvValueWriter {
    private final byte[] delimiter;
    private final byte[] nullLiteral;

    JoinedCsvWriter(String path, CsvBytes bytes) {
        super(path, true);
        this.delimiter = bytes.arrayDelimiter;
        this.nullLiteral = bytes.nullLiteral;
    }

    /** Writes element {@code index} of {@code elements}, after a delimiter unless it is the first. */
    final void writeElement(ByteOutput out, CsvValueWriter elements, int index, boolean first) {
        if (!first) {
            out.writeBytes(delimiter);
        }
        if (elements.isNull(index)) {
            out.writeBytes(nullLiteral);
        } else {
            elements.write(out, index);
        }
    }

    /** ARRAY of a scalar type. */
    static final class Array extends JoinedCsvWriter {
        private final Offsets offsets = new Offsets();
        private final CsvValueWriter elements;

        Array(String path, CsvBytes bytes, CsvValueWriter elements) {
            super(path, bytes);
            this.elements = elements;
        }

        @Override
        protected void bindValues(ValueVector vector, int count) {
            bindList(vector, count, offsets, elements);
        }

        @Override
        void write(ByteOutput out, int index) {
            int start = (int) offsets.get(index);
            int end = (int) offsets.get(index + 1);
            for (int i = start; i < end; i++) {
                writeElement(out, elements, i, i == start);
            }
        }
    }

    /** ROW of scalar fields. */
    static final class Row extends JoinedCsvWriter {
        private final CsvValueWriter[] fields;

        Row(String path, CsvBytes bytes, List<CsvValueWriter> fields) {
            super(path, bytes);
            this.fields = fields.toArray(new CsvValueWriter[0]);
        }

        @Override
        protected void bindValues(ValueVector vector, int count) {
            List<FieldVector> children = ((FieldVector) vector).getChildrenFromFields();
            for (int f = 0; f < fields.length; f++) {
                fields[f].bind(children.get(f), count);
            }
        }

        @Override
        void write(ByteOutput out, int index) {
            for (int f = 0; f < fields.length; f++) {
                writeElement(out, fields[f], index, f == 0);
            }
        }
    }
}
