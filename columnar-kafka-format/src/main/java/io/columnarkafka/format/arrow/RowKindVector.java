package io.columnarkafka.format.arrow;

import java.util.List;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.flink.types.RowKind;

/**
 * The row kinds of an Arrow batch, which has none of its own: a TINYINT column holding each row's {@code
 * RowKind.toByteValue()} (0 +I, 1 -U, 2 +U, 3 -D), last in the batch ({@link RowDataArrowWriter#withRowKindColumn}).
 * The changelog JSON encoders read it ({@code row-kind.column}); a scan whose source emits row kinds (an {@code
 * upsert-kafka} scan, a changelog format's decoder) writes it and its row view reads it back into each row.
 */
public final class RowKindVector {
    /** The column's name in a scan's decoded batches (no physical or metadata column can take it). */
    public static final String SCAN_COLUMN = "$row_kind";

    private RowKindVector() {}

    /** {@link #SCAN_COLUMN}, with {@code _} appended while one of {@code columns} has the name. */
    public static String columnBeside(List<String> columns) {
        String name = SCAN_COLUMN;
        while (columns.contains(name)) {
            name = name + "_";
        }
        return name;
    }

    /** Sets row {@code row} of {@code kinds} to {@code kind}. */
    public static void set(TinyIntVector kinds, int row, RowKind kind) {
        kinds.setSafe(row, kind.toByteValue());
    }

    /**
     * The kind of row {@code row}.
     *
     * @throws IllegalStateException naming the column and the row for a null or an unknown byte
     */
    public static RowKind kind(TinyIntVector kinds, int row) {
        if (kinds.isNull(row)) {
            throw new IllegalStateException("row-kind column '" + kinds.getName() + "', row " + row + ": null");
        }
        byte value = kinds.get(row);
        if (value < 0 || value > 3) {
            throw new IllegalStateException("row-kind column '" + kinds.getName() + "', row " + row + ": " + value
                    + " is not a RowKind byte value (0 to 3)");
        }
        return RowKind.fromByteValue(value);
    }
}
