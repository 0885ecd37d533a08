package io.columnarkafka.format.json;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;

/**
 * The fields a JSON-based decoder produces out of the row its format converts (a scan's projection): Flink's
 * {@code kafka} source takes no projection, so Flink's format converts every field of {@code formatType} and the
 * decoder checks the ones it does not produce ({@link CheckOnlyJsonReader}).
 *
 * @param read for each field of the format's row, whether it is produced
 * @param columns for each produced column, its field in the format's row
 * @param rowType the produced fields, in the format's order
 */
record ProducedFields(boolean[] read, int[] columns, RowType rowType) {
    /**
     * @throws IllegalArgumentException if {@code produced} names a field {@code formatType} does not hold, or one
     *     twice
     */
    static ProducedFields of(RowType formatType, List<String> produced) {
        boolean[] read = new boolean[formatType.getFieldCount()];
        for (String name : produced) {
            int field = formatType.getFieldIndex(name);
            if (field < 0) {
                throw new IllegalArgumentException(
                        "field '" + name + "' is not a field of " + formatType.asSummaryString());
            }
            if (read[field]) {
                throw new IllegalArgumentException("field '" + name + "' is produced twice");
            }
            read[field] = true;
        }
        int[] columns = new int[produced.size()];
        List<RowType.RowField> fields = new ArrayList<>();
        for (int field = 0, column = 0; field < read.length; field++) {
            if (read[field]) {
                columns[column++] = field;
                fields.add(formatType.getFields().get(field));
            }
        }
        return new ProducedFields(read, columns, new RowType(formatType.isNullable(), fields));
    }
}
