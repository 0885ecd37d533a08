package io.columnarkafka.format.csv;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * ARRAY and ROW columns, which Jackson splits at the array element delimiter (a blank value is no
 * element; an element equal to the null literal is null) and Flink converts element by element: an
 * ARRAY's elements, a ROW's fields by position (no elements: a null row; fewer elements than fields fail
 * unless {@code ignore-parse-errors}, which fills the missing fields with null; extra elements are ignored).
 */
final class CsvNestedReaders {
    private CsvNestedReaders() {}

    /** The element spans of one ARRAY or ROW value, reused. */
    static final class Elements {
        private final String delimiter;
        private final char[] nullLiteral;
        int[] starts = new int[16];
        int[] ends = new int[16];
        int count;

        Elements(CsvFormatOptions options) {
            this.delimiter = options.arrayElementDelimiter();
            this.nullLiteral = options.readNullLiteral() == null ? null : options.readNullLiteral().toCharArray();
        }

        /** Splits {@code text[start, end)} as Jackson's {@code _handleArrayValue} does. */
        void split(char[] text, int start, int end) {
            count = 0;
            if (CsvScalarReaders.trimStart(text, start, end) == end && indexOf(text, start, end) < 0) {
                return;
            }
            int from = start;
            while (true) {
                int at = indexOf(text, from, end);
                if (at < 0) {
                    add(from, end);
                    return;
                }
                add(from, at);
                from = at + delimiter.length();
            }
        }

        boolean isNull(char[] text, int i) {
            return nullLiteral != null && java.util.Arrays.equals(text, starts[i], ends[i], nullLiteral, 0,
                    nullLiteral.length);
        }

        private int indexOf(char[] text, int from, int end) {
            int n = delimiter.length();
            outer:
            for (int i = from; i + n <= end; i++) {
                for (int k = 0; k < n; k++) {
                    if (text[i + k] != delimiter.charAt(k)) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        private void add(int start, int end) {
            if (count == starts.length) {
                starts = java.util.Arrays.copyOf(starts, count * 2);
                ends = java.util.Arrays.copyOf(ends, count * 2);
            }
            starts[count] = start;
            ends[count] = end;
            count++;
        }
    }

    static final class ArrayReader extends CsvFieldReader {
        private final CsvFieldReader element;
        private final Elements elements;
        private final boolean ignoreParseErrors;
        private ListVector vector;

        ArrayReader(String path, CsvFieldReader element, CsvFormatOptions options) {
            super(path);
            this.element = element;
            this.elements = new Elements(options);
            this.ignoreParseErrors = options.ignoreParseErrors();
        }

        @Override
        void bind(FieldVector vector) {
            this.vector = (ListVector) vector;
            element.bind(this.vector.getDataVector());
        }

        @Override
        boolean splitsValue() {
            return true;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            elements.split(text, start, end);
            int offset = vector.startNewValue(index);
            for (int k = 0; k < elements.count; k++) {
                int slot = offset + k;
                if (elements.isNull(text, k)) {
                    element.setNull(slot);
                    continue;
                }
                try {
                    element.read(text, elements.starts[k], elements.ends[k], slot);
                } catch (RuntimeException e) {
                    if (!ignoreParseErrors) {
                        throw e;
                    }
                    element.setNull(slot);
                }
            }
            vector.endValue(index, elements.count);
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }
    }

    static final class RowReader extends CsvFieldReader {
        private final CsvFieldReader[] fields;
        private final Elements elements;
        private final boolean ignoreParseErrors;
        private StructVector vector;

        RowReader(String path, CsvFieldReader[] fields, CsvFormatOptions options) {
            super(path);
            this.fields = fields;
            this.elements = new Elements(options);
            this.ignoreParseErrors = options.ignoreParseErrors();
        }

        @Override
        void bind(FieldVector vector) {
            this.vector = (StructVector) vector;
            for (int i = 0; i < fields.length; i++) {
                fields[i].bind((FieldVector) this.vector.getChildByOrdinal(i));
            }
        }

        @Override
        boolean splitsValue() {
            return true;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            elements.split(text, start, end);
            if (elements.count == 0) {
                setNull(index);
                return;
            }
            if (elements.count < fields.length && !ignoreParseErrors) { // Flink ignores extra elements
                throw new IllegalArgumentException("Row length mismatch. " + fields.length + " fields expected but was "
                        + elements.count + ".");
            }
            vector.setIndexDefined(index);
            for (int i = 0; i < fields.length; i++) {
                CsvFieldReader field = fields[i];
                if (i >= elements.count || elements.isNull(text, i)) {
                    field.setNull(index);
                    continue;
                }
                try {
                    field.read(text, elements.starts[i], elements.ends[i], index);
                } catch (RuntimeException e) {
                    if (!ignoreParseErrors) {
                        throw new NestedFieldFailure(field.path, "Fail to deserialize at field: "
                                + field.path.substring(path.length() + 1) + ". " + e, e);
                    }
                    field.setNull(index);
                }
            }
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
            for (CsvFieldReader field : fields) {
                field.setNull(index);
            }
        }
    }
}
