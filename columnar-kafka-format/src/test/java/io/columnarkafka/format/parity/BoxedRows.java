package io.columnarkafka.format.parity;

import org.apache.flink.table.data.BoxedWrapperRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * A row as {@code BoxedWrapperRowData}, the class a chained code-generated Calc hands its next operator
 * (a sink among them): primitives through its typed setters, as the generated code sets them, every other
 * value as it is.
 */
public final class BoxedRows {
    private BoxedRows() {}

    public static BoxedWrapperRowData of(RowType type, RowData row) {
        BoxedWrapperRowData boxed = new BoxedWrapperRowData(type.getFieldCount());
        boxed.setRowKind(row.getRowKind());
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType t = type.getTypeAt(i);
            if (row.isNullAt(i)) {
                boxed.setNullAt(i);
                continue;
            }
            switch (t.getTypeRoot()) {
                case BOOLEAN -> boxed.setBoolean(i, row.getBoolean(i));
                case TINYINT -> boxed.setByte(i, row.getByte(i));
                case SMALLINT -> boxed.setShort(i, row.getShort(i));
                case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH -> boxed.setInt(i, row.getInt(i));
                case BIGINT, INTERVAL_DAY_TIME -> boxed.setLong(i, row.getLong(i));
                case FLOAT -> boxed.setFloat(i, row.getFloat(i));
                case DOUBLE -> boxed.setDouble(i, row.getDouble(i));
                default -> boxed.setNonPrimitiveValue(i, RowData.createFieldGetter(t, i).getFieldOrNull(row));
            }
        }
        return boxed;
    }
}
