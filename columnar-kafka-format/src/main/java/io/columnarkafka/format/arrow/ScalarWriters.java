package io.columnarkafka.format.arrow;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;

/** Writers of the fixed- and variable-width scalar columns: one small class per Arrow vector type. */
final class ScalarWriters {
    private ScalarWriters() {}

    static final class BooleanWriter extends FieldWriter<BitVector> {
        BooleanWriter(String path, BitVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getBoolean(pos) ? 1 : 0);
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getBoolean(pos) ? 1 : 0);
        }
    }

    static final class TinyIntWriter extends FieldWriter<TinyIntVector> {
        TinyIntWriter(String path, TinyIntVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getByte(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getByte(pos));
        }
    }

    static final class SmallIntWriter extends FieldWriter<SmallIntVector> {
        SmallIntWriter(String path, SmallIntVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getShort(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getShort(pos));
        }
    }

    static final class IntWriter extends FieldWriter<IntVector> {
        IntWriter(String path, IntVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getInt(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getInt(pos));
        }
    }

    static final class BigIntWriter extends FieldWriter<BigIntVector> {
        BigIntWriter(String path, BigIntVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getLong(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getLong(pos));
        }
    }

    static final class FloatWriter extends FieldWriter<Float4Vector> {
        FloatWriter(String path, Float4Vector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getFloat(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getFloat(pos));
        }
    }

    static final class DoubleWriter extends FieldWriter<Float8Vector> {
        DoubleWriter(String path, Float8Vector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getDouble(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getDouble(pos));
        }
    }

    /** DATE: Flink's internal int of days since the epoch, as Arrow Date(DAY) holds it. */
    static final class DateWriter extends FieldWriter<DateDayVector> {
        DateWriter(String path, DateDayVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getInt(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getInt(pos));
        }
    }

    /** TIME(p): Flink's internal int of milliseconds of the day, whatever the precision. */
    static final class TimeWriter extends FieldWriter<TimeMilliVector> {
        TimeWriter(String path, TimeMilliVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getInt(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getInt(pos));
        }
    }

    /** INTERVAL YEAR TO MONTH: Flink's internal int of months, as Arrow Interval(YEAR_MONTH) holds it. */
    static final class MonthsWriter extends FieldWriter<IntervalYearVector> {
        MonthsWriter(String path, IntervalYearVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getInt(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getInt(pos));
        }
    }

    /** INTERVAL DAY TO SECOND: Flink's internal long of milliseconds, as Arrow Duration(MILLISECOND) holds it. */
    static final class MillisDurationWriter extends FieldWriter<DurationVector> {
        MillisDurationWriter(String path, DurationVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            vector.setSafe(index, row.getLong(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            vector.setSafe(index, array.getLong(pos));
        }
    }

    /**
     * DECIMAL(p,s): a compact decimal (p ≤ 18) goes in as its unscaled long, a wider one as its
     * big-endian unscaled bytes, so no {@code BigDecimal} is built per value.
     */
    static final class DecimalWriter extends FieldWriter<DecimalVector> {
        private final int precision;
        private final int scale;
        private final boolean compact;

        DecimalWriter(String path, DecimalVector vector, DecimalType type) {
            super(path, vector);
            this.precision = type.getPrecision();
            this.scale = type.getScale();
            this.compact = DecimalData.isCompact(precision);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            set(index, row.getDecimal(pos, precision, scale));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            set(index, array.getDecimal(pos, precision, scale));
        }

        private void set(int index, DecimalData decimal) {
            if (compact) {
                vector.setSafe(index, decimal.toUnscaledLong());
            } else {
                vector.setBigEndianSafe(index, decimal.toUnscaledBytes());
            }
        }
    }

    /** CHAR / VARCHAR: the UTF-8 bytes, copied straight from the string's heap segment when it has one. */
    static final class StringWriter extends FieldWriter<VarCharVector> {
        StringWriter(String path, VarCharVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            set(vector, index, row.getString(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            set(vector, index, array.getString(pos));
        }

        /** Stores {@code string}'s bytes at {@code index}; also {@link RowTranspose}'s string column. */
        static void set(BaseVariableWidthVector vector, int index, StringData string) {
            if (string instanceof BinaryStringData binary) {
                binary.ensureMaterialized();
                MemorySegment[] segments = binary.getSegments();
                if (segments.length == 1 && !segments[0].isOffHeap()) {
                    vector.setSafe(index, segments[0].getArray(), binary.getOffset(), binary.getSizeInBytes());
                    return;
                }
            }
            byte[] bytes = string.toBytes();
            vector.setSafe(index, bytes, 0, bytes.length);
        }
    }

    static final class BinaryWriter extends FieldWriter<VarBinaryVector> {
        BinaryWriter(String path, VarBinaryVector vector) {
            super(path, vector);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            byte[] bytes = row.getBinary(pos);
            vector.setSafe(index, bytes, 0, bytes.length);
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            byte[] bytes = array.getBinary(pos);
            vector.setSafe(index, bytes, 0, bytes.length);
        }
    }
}
