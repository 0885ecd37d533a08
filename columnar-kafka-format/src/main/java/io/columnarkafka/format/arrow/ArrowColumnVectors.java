package io.columnarkafka.format.arrow;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.ColumnarArrayData;
import org.apache.flink.table.data.columnar.ColumnarMapData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.MapColumnVector;
import org.apache.flink.table.data.columnar.vector.RowColumnVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink {@link ColumnVector}s reading Arrow vectors of the {@link ArrowLayout} in place: the mirror of
 * {@link FieldWriter}. Fixed-width values are read from the Arrow buffers on each call, nested values are
 * Flink's own {@link ColumnarArrayData} / {@link ColumnarMapData} / {@link ColumnarRowData} over child
 * vectors, so no value is copied until Flink reads it.
 *
 * <p>Strings and bytes are the one exception that costs a copy per read: Flink's {@link
 * BytesColumnVector.Bytes} (and the {@code BinaryStringData} / {@code byte[]} built from it) must be a
 * heap array, and Arrow's data buffer is off-heap. A read copies the value's bytes once into an exact-size
 * array, which {@code StringData.fromBytes} wraps and {@code getBinary} returns as is (its length equals
 * the array's), so there is no second copy, and the value stays valid after the batch is freed.
 *
 * <p>The vectors hold the buffers of one batch: build them per batch (cheap: one object per column and
 * nested type) and never read them after the batch is closed.
 */
final class ArrowColumnVectors {
    private ArrowColumnVectors() {}

    /** A column vector reading {@code vector}, which carries {@code type} as {@link ArrowLayout} lays it out. */
    static ColumnVector of(LogicalType type, ValueVector vector) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new Booleans(vector);
            case TINYINT:
                return new Bytes8(vector);
            case SMALLINT:
                return new Shorts(vector);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new Ints(vector);
            case BIGINT:
                return new Longs(vector);
            case FLOAT:
                return new Floats(vector);
            case DOUBLE:
                return new Doubles(vector);
            case DECIMAL:
                return new Decimals((DecimalVector) vector);
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return vector instanceof BaseLargeVariableWidthVector large
                        ? new LargeVariableWidth(large)
                        : new VariableWidth((BaseVariableWidthVector) vector);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return WideTimestamps.carries(vector) ? new WideTimestampValues(vector)
                        : new Timestamps((TimeStampVector) vector);
            case ARRAY:
                return vector instanceof LargeListVector large
                        ? new LargeLists(large, of(((ArrayType) type).getElementType(), large.getDataVector()))
                        : new Lists((ListVector) vector,
                                of(((ArrayType) type).getElementType(), ((ListVector) vector).getDataVector()));
            case ROW:
                return new Rows((StructVector) vector, (RowType) type);
            case MAP:
                MapType map = (MapType) type;
                return new Maps((ListVector) vector, map.getKeyType(), map.getValueType());
            case MULTISET:
                return new Maps((ListVector) vector, ((MultisetType) type).getElementType(), new IntType(false));
            default:
                throw new IllegalArgumentException(
                        "Flink type " + type.asSummaryString() + " has no Arrow layout");
        }
    }

    /** The columns of a row type over the children of a struct (or a root's vectors), as one batch. */
    static VectorizedColumnBatch batch(RowType type, List<? extends ValueVector> vectors) {
        ColumnVector[] columns = new ColumnVector[type.getFieldCount()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = of(type.getTypeAt(i), vectors.get(i));
        }
        return new VectorizedColumnBatch(columns);
    }

    /** Null test from the vector's validity bitmap, shared by every reader. */
    private abstract static class Base implements ColumnVector {
        final ValueVector vector;

        Base(ValueVector vector) {
            this.vector = vector;
        }

        @Override
        public final boolean isNullAt(int i) {
            return vector.isNull(i);
        }
    }

    /** A fixed-width vector read from its data buffer. */
    private abstract static class Fixed extends Base {
        final ArrowBuf data;

        Fixed(ValueVector vector) {
            super(vector);
            this.data = vector.getDataBuffer();
        }
    }

    private static final class Booleans extends Fixed implements BooleanColumnVector {
        Booleans(ValueVector vector) {
            super(vector);
        }

        @Override
        public boolean getBoolean(int i) {
            return BitVectorHelper.get(data, i) != 0;
        }
    }

    private static final class Bytes8 extends Fixed implements ByteColumnVector {
        Bytes8(ValueVector vector) {
            super(vector);
        }

        @Override
        public byte getByte(int i) {
            return data.getByte(i);
        }
    }

    private static final class Shorts extends Fixed implements ShortColumnVector {
        Shorts(ValueVector vector) {
            super(vector);
        }

        @Override
        public short getShort(int i) {
            return data.getShort((long) i * Short.BYTES);
        }
    }

    /** INT, DATE (days) and TIME (milliseconds): Flink's internal form of all three is an int. */
    private static final class Ints extends Fixed implements IntColumnVector {
        Ints(ValueVector vector) {
            super(vector);
        }

        @Override
        public int getInt(int i) {
            return data.getInt((long) i * Integer.BYTES);
        }
    }

    private static final class Longs extends Fixed implements LongColumnVector {
        Longs(ValueVector vector) {
            super(vector);
        }

        @Override
        public long getLong(int i) {
            return data.getLong((long) i * Long.BYTES);
        }
    }

    private static final class Floats extends Fixed implements FloatColumnVector {
        Floats(ValueVector vector) {
            super(vector);
        }

        @Override
        public float getFloat(int i) {
            return data.getFloat((long) i * Float.BYTES);
        }
    }

    private static final class Doubles extends Fixed implements DoubleColumnVector {
        Doubles(ValueVector vector) {
            super(vector);
        }

        @Override
        public double getDouble(int i) {
            return data.getDouble((long) i * Double.BYTES);
        }
    }

    /**
     * DECIMAL from Arrow's 16-byte little-endian two's complement: a compact decimal (precision ≤ 18, whose
     * unscaled value fits a long) is the low eight bytes, with no {@code BigDecimal}; wider ones go through
     * Arrow's {@code BigDecimal}, as Flink holds them.
     */
    private static final class Decimals extends Fixed implements DecimalColumnVector {
        private final DecimalVector decimals;

        Decimals(DecimalVector vector) {
            super(vector);
            this.decimals = vector;
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            if (DecimalData.isCompact(precision)) {
                return DecimalData.fromUnscaledLong(data.getLong((long) i * DecimalVector.TYPE_WIDTH), precision, scale);
            }
            return DecimalData.fromBigDecimal(decimals.getObject(i), precision, scale);
        }
    }

    /** CHAR, VARCHAR, BINARY, VARBINARY from Utf8 / Binary: one copy of the value's bytes per read. */
    private static final class VariableWidth extends Base implements BytesColumnVector {
        private final ArrowBuf offsets;
        private final ArrowBuf data;

        VariableWidth(BaseVariableWidthVector vector) {
            super(vector);
            this.offsets = vector.getOffsetBuffer();
            this.data = vector.getDataBuffer();
        }

        @Override
        public Bytes getBytes(int i) {
            int start = offsets.getInt((long) i * BaseVariableWidthVector.OFFSET_WIDTH);
            int end = offsets.getInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
            byte[] value = new byte[end - start];
            data.getBytes(start, value, 0, value.length);
            return new Bytes(value, 0, value.length);
        }
    }

    /** The same from LargeUtf8 / LargeBinary (64-bit offsets). */
    private static final class LargeVariableWidth extends Base implements BytesColumnVector {
        private final ArrowBuf offsets;
        private final ArrowBuf data;

        LargeVariableWidth(BaseLargeVariableWidthVector vector) {
            super(vector);
            this.offsets = vector.getOffsetBuffer();
            this.data = vector.getDataBuffer();
        }

        @Override
        public Bytes getBytes(int i) {
            long start = offsets.getLong((long) i * BaseLargeVariableWidthVector.OFFSET_WIDTH);
            long end = offsets.getLong((long) (i + 1) * BaseLargeVariableWidthVector.OFFSET_WIDTH);
            byte[] value = new byte[Math.toIntExact(end - start)];
            data.getBytes(start, value, 0, value.length);
            return new Bytes(value, 0, value.length);
        }
    }

    /**
     * TIMESTAMP and TIMESTAMP_LTZ from the epoch value in the vector's unit, split into Flink's epoch
     * milliseconds and nanoseconds of the millisecond (floor division, so times before 1970 are exact).
     */
    private static final class Timestamps extends Fixed implements TimestampColumnVector {
        private final long nanosPerUnit;

        Timestamps(TimeStampVector vector) {
            super(vector);
            this.nanosPerUnit = switch (((ArrowType.Timestamp) vector.getField().getType()).getUnit()) {
                case SECOND -> 1_000_000_000L;
                case MILLISECOND -> 1_000_000L;
                case MICROSECOND -> 1_000L;
                case NANOSECOND -> 1L;
            };
        }

        @Override
        public TimestampData getTimestamp(int i, int precision) {
            long value = data.getLong((long) i * Long.BYTES);
            if (nanosPerUnit >= 1_000_000L) {
                return TimestampData.fromEpochMillis(value * (nanosPerUnit / 1_000_000L));
            }
            long unitsPerMilli = 1_000_000L / nanosPerUnit;
            return TimestampData.fromEpochMillis(Math.floorDiv(value, unitsPerMilli),
                    (int) (Math.floorMod(value, unitsPerMilli) * nanosPerUnit));
        }
    }

    /** TIMESTAMP and TIMESTAMP_LTZ in the {@link WideTimestamps} layout: Flink's own pair, as it is. */
    private static final class WideTimestampValues extends Fixed implements TimestampColumnVector {
        WideTimestampValues(ValueVector vector) {
            super(vector);
        }

        @Override
        public TimestampData getTimestamp(int i, int precision) {
            long at = (long) i * WideTimestamps.BYTE_WIDTH;
            return TimestampData.fromEpochMillis(data.getLong(at), data.getInt(at + Long.BYTES));
        }
    }

    /** ARRAY from List: Flink's {@link ColumnarArrayData} over the element vector's range. */
    private static final class Lists extends Base implements ArrayColumnVector {
        private final ArrowBuf offsets;
        private final ColumnVector elements;

        Lists(ListVector vector, ColumnVector elements) {
            super(vector);
            this.offsets = vector.getOffsetBuffer();
            this.elements = elements;
        }

        @Override
        public ArrayData getArray(int i) {
            int start = offsets.getInt((long) i * ListVector.OFFSET_WIDTH);
            int end = offsets.getInt((long) (i + 1) * ListVector.OFFSET_WIDTH);
            return new ColumnarArrayData(elements, start, end - start);
        }
    }

    /** ARRAY from LargeList (64-bit offsets; Flink's arrays index with ints). */
    private static final class LargeLists extends Base implements ArrayColumnVector {
        private final ArrowBuf offsets;
        private final ColumnVector elements;

        LargeLists(LargeListVector vector, ColumnVector elements) {
            super(vector);
            this.offsets = vector.getOffsetBuffer();
            this.elements = elements;
        }

        @Override
        public ArrayData getArray(int i) {
            long start = offsets.getLong((long) i * LargeListVector.OFFSET_WIDTH);
            long end = offsets.getLong((long) (i + 1) * LargeListVector.OFFSET_WIDTH);
            return new ColumnarArrayData(elements, Math.toIntExact(start), Math.toIntExact(end - start));
        }
    }

    /** ROW from Struct: Flink's {@link ColumnarRowData} over the children at the same slot. */
    private static final class Rows extends Base implements RowColumnVector {
        private final VectorizedColumnBatch fields;

        Rows(StructVector vector, RowType type) {
            super(vector);
            this.fields = batch(type, vector.getChildrenFromFields());
        }

        @Override
        public ColumnarRowData getRow(int i) {
            return new ColumnarRowData(fields, i);
        }
    }

    /**
     * MAP and MULTISET (counts as INT values) from Map: Flink's {@link ColumnarMapData} over the entries'
     * key and value vectors. A null key (an unset validity bit in the key vector, see {@code NestedWriters})
     * reads as null.
     */
    private static final class Maps extends Base implements MapColumnVector {
        private final ArrowBuf offsets;
        private final ColumnVector keys;
        private final ColumnVector values;

        Maps(ListVector vector, LogicalType keyType, LogicalType valueType) {
            super(vector);
            this.offsets = vector.getOffsetBuffer();
            List<FieldVector> keyAndValue = ((StructVector) vector.getDataVector()).getChildrenFromFields();
            this.keys = of(keyType, keyAndValue.get(0));
            this.values = of(valueType, keyAndValue.get(1));
        }

        @Override
        public MapData getMap(int i) {
            int start = offsets.getInt((long) i * ListVector.OFFSET_WIDTH);
            int end = offsets.getInt((long) (i + 1) * ListVector.OFFSET_WIDTH);
            return new ColumnarMapData(keys, values, start, end - start);
        }
    }
}
