package io.columnarkafka.flink.calc.eval;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * One row of some nodes' {@link Column}s as a {@link RowData}, field {@code f} being {@code columns[f]}: the input
 * row of Flink's generated code for a call ({@link FlinkCodeCall}), moved from row to row with {@link #at}. Reads
 * the arrays in place (a string is a view of the column's bytes, as Flink's binary rows hand out strings over their
 * memory segments: one segment per column's byte array, made when the array is new, not one per row); only the
 * getters of the types {@link FlinkCodeCall#ARGUMENT_TYPES} admits are asked for.
 */
final class ColumnsRow implements RowData {
    private final Column[] columns;
    /** Per field, the byte array of the column that {@link #segments} wraps (null until a string is read). */
    private final byte[][] wrapped;
    /** Per field, the one memory segment over {@code wrapped}, as the segments of a string. */
    private final MemorySegment[][] segments;
    private int row;

    ColumnsRow(Column[] columns) {
        this.columns = columns;
        this.wrapped = new byte[columns.length][];
        this.segments = new MemorySegment[columns.length][];
    }

    /** Makes this the row at position {@code row} of the columns. */
    void at(int row) {
        this.row = row;
    }

    @Override
    public int getArity() {
        return columns.length;
    }

    @Override
    public RowKind getRowKind() {
        return RowKind.INSERT;
    }

    @Override
    public void setRowKind(RowKind kind) {
        throw new UnsupportedOperationException("the arguments of a call are read only");
    }

    @Override
    public boolean isNullAt(int pos) {
        return columns[pos].nulls[row];
    }

    @Override
    public boolean getBoolean(int pos) {
        return columns[pos].longs[row] != 0;
    }

    @Override
    public byte getByte(int pos) {
        return (byte) columns[pos].longs[row];
    }

    @Override
    public short getShort(int pos) {
        return (short) columns[pos].longs[row];
    }

    @Override
    public int getInt(int pos) {
        return (int) columns[pos].longs[row];
    }

    @Override
    public long getLong(int pos) {
        return columns[pos].longs[row];
    }

    @Override
    public double getDouble(int pos) {
        return columns[pos].doubles[row];
    }

    @Override
    public StringData getString(int pos) {
        Column c = columns[pos];
        if (wrapped[pos] != c.bytes) {
            wrapped[pos] = c.bytes;
            segments[pos] = new MemorySegment[] {MemorySegmentFactory.wrap(c.bytes)};
        }
        return BinaryStringData.fromAddress(segments[pos], c.starts[row], c.lengths[row]);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        Column c = columns[pos];
        return TimestampData.fromEpochMillis(c.longs[row], c.nanos[row]);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        Column c = columns[pos];
        return Decimal128.toDecimalData(c.highs[row], c.longs[row], precision, scale);
    }

    @Override
    public float getFloat(int pos) {
        throw notHeld("FLOAT");
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw notHeld("RAW");
    }

    @Override
    public byte[] getBinary(int pos) {
        throw notHeld("BINARY");
    }

    @Override
    public ArrayData getArray(int pos) {
        throw notHeld("ARRAY");
    }

    @Override
    public MapData getMap(int pos) {
        throw notHeld("MAP");
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        throw notHeld("ROW");
    }

    @Override
    public Variant getVariant(int pos) {
        throw notHeld("VARIANT");
    }

    private static UnsupportedOperationException notHeld(String type) {
        return new UnsupportedOperationException("the calc holds no " + type + " argument");
    }
}
