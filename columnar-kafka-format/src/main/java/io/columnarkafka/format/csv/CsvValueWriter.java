package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.BoundColumn;

/**
 * Writes the values of one Arrow vector as CSV text, unquoted: a {@link BoundColumn} that spells values
 * as Flink's {@code RowDataToCsvConverters} and Jackson's {@code CsvGenerator} do. Whether the text then
 * goes through {@link CsvQuoting} depends on the Jackson node Flink builds: text nodes (strings, dates,
 * times, timestamps, Base64 binary, and the joined elements of ARRAY and ROW) do; numbers and booleans
 * never do.
 */
abstract class CsvValueWriter extends BoundColumn {
    /** True if Flink writes the value as a string, so quoting rules apply to it. */
    final boolean textual;

    CsvValueWriter(String path, boolean textual) {
        super(path);
        this.textual = textual;
    }

    /** Writes the non-null value at {@code index}, unquoted. */
    abstract void write(ByteOutput out, int index);

    /** Writes the non-null value at {@code index} as a top-level field: quoted by {@code quoting} if textual. */
    void writeField(ByteOutput out, int index, CsvQuoting quoting) {
        if (textual) {
            int start = out.pos;
            write(out, index);
            quoting.apply(out, start);
        } else {
            write(out, index);
        }
    }
}
