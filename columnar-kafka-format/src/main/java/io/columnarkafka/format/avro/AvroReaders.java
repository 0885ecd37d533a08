package io.columnarkafka.format.avro;

import io.columnarkafka.format.Utf8Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.table.data.DecimalData;

/**
 * The readers of each Flink type's Avro value: TINYINT and SMALLINT narrow the Avro int as Flink does
 * ({@code byteValue()}, {@code shortValue()}), strings keep their bytes when they are well-formed UTF-8 and
 * otherwise go through Java's decoder (Flink calls {@code Utf8.toString()}), DECIMAL is Flink's {@code
 * DecimalData.fromUnscaledBytes} (null when it overflows the precision), timestamps are epoch milliseconds
 * whatever the logical type says (Flink's converter reads every Avro long as millis), held in the column's
 * Arrow unit.
 */
final class AvroReaders {
    private AvroReaders() {}

    abstract static class Typed<V extends FieldVector> extends AvroFieldReader {
        V vector;

        Typed(String path, boolean nullable) {
            super(path, nullable);
        }

        @SuppressWarnings("unchecked")
        @Override
        void bind(FieldVector vector) {
            this.vector = (V) vector;
        }

        @Override
        FieldVector vector() {
            return vector;
        }
    }

    static final class BooleanReader extends Typed<BitVector> {
        BooleanReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, in.readBoolean() ? 1 : 0);
        }

        @Override
        void skipValue(AvroInput in) {
            in.readBoolean();
        }
    }

    static final class TinyIntReader extends Typed<TinyIntVector> {
        TinyIntReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, (byte) in.readInt());
        }

        @Override
        void skipValue(AvroInput in) {
            in.readInt();
        }
    }

    static final class SmallIntReader extends Typed<SmallIntVector> {
        SmallIntReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, (short) in.readInt());
        }

        @Override
        void skipValue(AvroInput in) {
            in.readInt();
        }
    }

    static final class IntReader extends Typed<IntVector> {
        IntReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, in.readInt());
        }

        @Override
        void skipValue(AvroInput in) {
            in.readInt();
        }
    }

    static final class DateReader extends Typed<DateDayVector> {
        DateReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, in.readInt());
        }

        @Override
        void skipValue(AvroInput in) {
            in.readInt();
        }
    }

    static final class TimeReader extends Typed<TimeMilliVector> {
        TimeReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, in.readInt());
        }

        @Override
        void skipValue(AvroInput in) {
            in.readInt();
        }
    }

    static final class BigIntReader extends Typed<BigIntVector> {
        BigIntReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, in.readLong());
        }

        @Override
        void skipValue(AvroInput in) {
            in.readLong();
        }
    }

    static final class FloatReader extends Typed<Float4Vector> {
        FloatReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, Float.intBitsToFloat(in.readFixedInt()));
        }

        @Override
        void skipValue(AvroInput in) {
            in.readFixedInt();
        }
    }

    static final class DoubleReader extends Typed<Float8Vector> {
        DoubleReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setSafe(index, Double.longBitsToDouble(in.readFixedLong()));
        }

        @Override
        void skipValue(AvroInput in) {
            in.readFixedLong();
        }
    }

    /** Epoch milliseconds (Flink's {@code TimestampData.fromEpochMillis}) in the column's unit. */
    static final class TimestampReader extends Typed<TimeStampVector> {
        private final TimeUnit unit;

        TimestampReader(String path, boolean nullable, TimeUnit unit) {
            super(path, nullable);
            this.unit = unit;
        }

        @Override
        void readValue(AvroInput in, int index) {
            long millis = in.readLong();
            long value;
            try {
                switch (unit) {
                    case MILLISECOND:
                        value = millis;
                        break;
                    case MICROSECOND:
                        value = Math.multiplyExact(millis, 1_000L);
                        break;
                    default:
                        value = Math.multiplyExact(millis, 1_000_000L);
                        break;
                }
            } catch (ArithmeticException e) {
                throw new AvroInput.Malformed(millis + " ms is outside the range of Arrow " + unit + " timestamps");
            }
            vector.setSafe(index, value);
        }

        @Override
        void skipValue(AvroInput in) {
            in.readLong();
        }
    }

    static final class StringReader extends Typed<BaseVariableWidthVector> {
        StringReader(String path, boolean nullable) {
            super(path, nullable);
        }

        @Override
        void readValue(AvroInput in, int index) {
            int length = in.readLength();
            if (Utf8Bytes.isWellFormed(in.buf, in.pos, in.pos + length)) {
                vector.setSafe(index, in.buf, in.pos, length);
            } else {
                byte[] replaced = new String(in.buf, in.pos, length, StandardCharsets.UTF_8)
                        .getBytes(StandardCharsets.UTF_8);
                vector.setSafe(index, replaced, 0, replaced.length);
            }
            in.pos += length;
        }

        @Override
        void skipValue(AvroInput in) {
            in.skipLength();
        }
    }

    static final class BinaryReader extends Typed<BaseVariableWidthVector> {
        /** The size of the Avro {@code fixed} read, or -1 for Avro {@code bytes}. */
        private final int fixedSize;

        BinaryReader(String path, boolean nullable) {
            this(path, nullable, -1);
        }

        BinaryReader(String path, boolean nullable, int fixedSize) {
            super(path, nullable);
            this.fixedSize = fixedSize;
        }

        @Override
        void readValue(AvroInput in, int index) {
            int length = fixedSize < 0 ? in.readLength() : in.readFixedLength(fixedSize);
            vector.setSafe(index, in.buf, in.pos, length);
            in.pos += length;
        }

        @Override
        void skipValue(AvroInput in) {
            int length = fixedSize < 0 ? in.readLength() : in.readFixedLength(fixedSize); // before pos is read
            in.pos += length;
        }
    }

    static final class DecimalReader extends Typed<DecimalVector> {
        private final int precision;
        private final int scale;
        /** The size of the Avro {@code fixed} read, or -1 for Avro {@code bytes}. */
        private final int fixedSize;

        DecimalReader(String path, boolean nullable, int precision, int scale) {
            this(path, nullable, precision, scale, -1);
        }

        DecimalReader(String path, boolean nullable, int precision, int scale, int fixedSize) {
            super(path, nullable);
            this.precision = precision;
            this.scale = scale;
            this.fixedSize = fixedSize;
        }

        @Override
        void readValue(AvroInput in, int index) {
            int length = fixedSize < 0 ? in.readLength() : in.readFixedLength(fixedSize);
            if (length == 0) {
                throw new AvroInput.Malformed("Zero length BigInteger");
            }
            byte[] unscaled = java.util.Arrays.copyOfRange(in.buf, in.pos, in.pos + length);
            in.pos += length;
            DecimalData value = DecimalData.fromBigDecimal(new BigDecimal(new BigInteger(unscaled), scale),
                    precision, scale);
            if (value == null) {
                vector.setNull(index); // Flink: beyond the precision is null
            } else {
                vector.setSafe(index, value.toBigDecimal());
            }
        }

        @Override
        void skipValue(AvroInput in) {
            int length = fixedSize < 0 ? in.readLength() : in.readFixedLength(fixedSize); // before pos is read
            in.pos += length;
        }
    }

    static final class ArrayReader extends Typed<ListVector> {
        private final AvroFieldReader element;

        ArrayReader(String path, boolean nullable, AvroFieldReader element) {
            super(path, nullable);
            this.element = element;
        }

        @Override
        void bind(FieldVector vector) {
            super.bind(vector);
            element.bind(this.vector.getDataVector());
        }

        @Override
        void readValue(AvroInput in, int index) {
            int offset = vector.startNewValue(index);
            int count = 0;
            for (long block = in.readBlockCount(); block > 0; block = in.readBlockCount()) {
                for (long k = 0; k < block; k++) {
                    element.read(in, offset + count++);
                }
            }
            vector.endValue(index, count);
        }

        @Override
        void skipValue(AvroInput in) {
            for (long block = in.readBlockCount(); block > 0; block = in.readBlockCount()) {
                for (long k = 0; k < block; k++) {
                    element.skip(in);
                }
            }
        }
    }

    static final class RecordReader extends Typed<StructVector> {
        private final AvroFieldReader[] fields;

        RecordReader(String path, boolean nullable, AvroFieldReader[] fields) {
            super(path, nullable);
            this.fields = fields;
        }

        @Override
        void bind(FieldVector vector) {
            super.bind(vector);
            for (int i = 0; i < fields.length; i++) {
                fields[i].bind((FieldVector) this.vector.getChildByOrdinal(i));
            }
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setIndexDefined(index);
            for (AvroFieldReader field : fields) {
                field.read(in, index);
            }
        }

        @Override
        void skipValue(AvroInput in) {
            for (AvroFieldReader field : fields) {
                field.skip(in);
            }
        }
    }
}
