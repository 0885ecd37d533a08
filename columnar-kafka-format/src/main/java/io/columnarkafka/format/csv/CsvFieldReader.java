package io.columnarkafka.format.csv;

import org.apache.arrow.vector.FieldVector;

/**
 * Reads one CSV value (the characters {@code text[start, end)}) into one slot of an Arrow vector, as
 * Flink's {@code CsvToRowDataConverters} converts it. One reader is planned per column and nested type;
 * {@link #bind} points it at each batch's vector.
 */
abstract class CsvFieldReader {
    /** Column path for errors: {@code name}, or {@code row.field} inside a ROW column. */
    final String path;

    CsvFieldReader(String path) {
        this.path = path;
    }

    /** Points the reader (and its children) at the vector of the batch being decoded. */
    abstract void bind(FieldVector vector);

    /**
     * Writes the value at {@code index}.
     *
     * @throws RuntimeException where Flink's converter throws (the record is rejected, or under {@code
     *     ignore-parse-errors} the field is null)
     */
    abstract void read(char[] text, int start, int end, int index);

    abstract void setNull(int index);

    /** ARRAY and ROW columns: Jackson splits them and never reads the whole value as the null literal. */
    boolean splitsValue() {
        return false;
    }

    /** Flink's failure of a nested field, naming it as Flink does; the path names the field for our error. */
    static final class NestedFieldFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String path;

        NestedFieldFailure(String path, String reason, Throwable cause) {
            super(reason, cause);
            this.path = path;
        }
    }
}
