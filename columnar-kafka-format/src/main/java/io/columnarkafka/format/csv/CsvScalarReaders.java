package io.columnarkafka.format.csv;

import io.columnarkafka.format.arrow.WideTimestamps;
import io.columnarkafka.format.text.Base64Text;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.flink.table.data.DecimalData;

/**
 * Readers of the scalar CSV values, each what Flink's converter does with the text: integers trimmed and
 * parsed by the JDK ({@code Byte/Short/Integer/Long.parseX}), BOOLEAN {@code Boolean.parseBoolean} of the
 * trimmed text (anything but {@code true} is false), FLOAT/DOUBLE {@code Float/Double.parseX}, DECIMAL
 * {@code new BigDecimal} of the untrimmed text rounded half-up to the scale (null when it overflows the
 * precision), DATE {@code java.sql.Date.valueOf} (lenient days), TIME {@code LocalTime.parse} cut to the
 * precision, TIMESTAMP and TIMESTAMP_LTZ the trimmed SQL format (LTZ with a {@code Z}), strings as they
 * are, bytes as Jackson's Base64.
 */
final class CsvScalarReaders {
    private CsvScalarReaders() {}

    /** Flink's {@code TimeFormats.SQL_TIMESTAMP_FORMAT}: {@code yyyy-MM-dd HH:mm:ss} and 0 to 9 fraction digits. */
    static final DateTimeFormatter SQL_TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ')
            .append(new DateTimeFormatterBuilder().appendPattern("HH:mm:ss")
                    .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).toFormatter())
            .toFormatter();

    /** Flink's {@code TimeFormats.SQL_TIMESTAMP_WITH_LOCAL_TIMEZONE_FORMAT}: the SQL format and a {@code Z}. */
    static final DateTimeFormatter SQL_TIMESTAMP_LTZ = new DateTimeFormatterBuilder()
            .append(SQL_TIMESTAMP).appendLiteral('Z').toFormatter();

    static int trimStart(char[] text, int start, int end) {
        while (start < end && text[start] <= ' ') {
            start++;
        }
        return start;
    }

    static int trimEnd(char[] text, int start, int end) {
        while (end > start && text[end - 1] <= ' ') {
            end--;
        }
        return end;
    }

    /**
     * The trimmed text as an integer of at most {@code maxDigits} ASCII digits with an optional sign, or
     * {@code Long.MIN_VALUE} when it is anything else (the caller then lets the JDK decide).
     */
    static long simpleInteger(char[] text, int start, int end, int maxDigits) {
        int s = trimStart(text, start, end);
        int e = trimEnd(text, s, end);
        boolean negative = false;
        if (s < e && (text[s] == '-' || text[s] == '+')) {
            negative = text[s] == '-';
            s++;
        }
        if (s == e || e - s > maxDigits) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (int i = s; i < e; i++) {
            int digit = text[i] - '0';
            if (digit < 0 || digit > 9) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    static String trimmed(char[] text, int start, int end) {
        int s = trimStart(text, start, end);
        return new String(text, s, trimEnd(text, s, end) - s);
    }

    abstract static class Fixed<V extends BaseFixedWidthVector> extends CsvFieldReader {
        V vector;

        Fixed(String path) {
            super(path);
        }

        @SuppressWarnings("unchecked")
        @Override
        final void bind(FieldVector vector) {
            this.vector = (V) vector;
        }

        @Override
        final void setNull(int index) {
            vector.setNull(index);
        }
    }

    static final class BooleanReader extends Fixed<BitVector> {
        BooleanReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            int s = trimStart(text, start, end);
            int e = trimEnd(text, s, end);
            boolean value = e - s == 4 && Boolean.parseBoolean(new String(text, s, 4));
            vector.setSafe(index, value ? 1 : 0);
        }
    }

    static final class TinyIntReader extends Fixed<TinyIntVector> {
        TinyIntReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            long v = simpleInteger(text, start, end, 3);
            vector.setSafe(index, v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE ? (byte) v
                    : Byte.parseByte(trimmed(text, start, end)));
        }
    }

    static final class SmallIntReader extends Fixed<SmallIntVector> {
        SmallIntReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            long v = simpleInteger(text, start, end, 5);
            vector.setSafe(index, v >= Short.MIN_VALUE && v <= Short.MAX_VALUE ? (short) v
                    : Short.parseShort(trimmed(text, start, end)));
        }
    }

    static final class IntReader extends Fixed<IntVector> {
        IntReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            long v = simpleInteger(text, start, end, 9);
            vector.setSafe(index, v != Long.MIN_VALUE ? (int) v : Integer.parseInt(trimmed(text, start, end)));
        }
    }

    static final class BigIntReader extends Fixed<BigIntVector> {
        BigIntReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            long v = simpleInteger(text, start, end, 18);
            vector.setSafe(index, v != Long.MIN_VALUE ? v : Long.parseLong(trimmed(text, start, end)));
        }
    }

    static final class FloatReader extends Fixed<Float4Vector> {
        FloatReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            vector.setSafe(index, Float.parseFloat(trimmed(text, start, end)));
        }
    }

    static final class DoubleReader extends Fixed<Float8Vector> {
        DoubleReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            vector.setSafe(index, Double.parseDouble(trimmed(text, start, end)));
        }
    }

    static final class DecimalReader extends Fixed<DecimalVector> {
        private final int precision;
        private final int scale;

        DecimalReader(String path, int precision, int scale) {
            super(path);
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            DecimalData value = DecimalData.fromBigDecimal(new BigDecimal(text, start, end - start), precision, scale);
            if (value == null) {
                vector.setNull(index); // Flink: a value beyond the precision is null
            } else {
                vector.setSafe(index, value.toBigDecimal());
            }
        }
    }

    static final class DateReader extends Fixed<DateDayVector> {
        DateReader(String path) {
            super(path);
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            vector.setSafe(index, (int) java.sql.Date.valueOf(new String(text, start, end - start))
                    .toLocalDate().toEpochDay());
        }
    }

    static final class TimeReader extends Fixed<TimeMilliVector> {
        private final int unit;

        /** @throws IllegalArgumentException for a precision above 3, with Flink's message */
        TimeReader(String path, int precision) {
            super(path);
            if (precision > 3) {
                throw new IllegalArgumentException("Csv does not support TIME type with precision: " + precision
                        + ", it only supports precision 0 ~ 3.");
            }
            this.unit = precision == 0 ? 1000 : precision == 1 ? 100 : precision == 2 ? 10 : 1;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            int millis = (int) (LocalTime.parse(new String(text, start, end - start)).toNanoOfDay() / 1_000_000L);
            vector.setSafe(index, millis / unit * unit);
        }
    }

    /**
     * TIMESTAMP and TIMESTAMP_LTZ, any precision: the parsed local date-time as Flink's {@code TimestampData}
     * holds it, every fraction digit of the text ({@link WideTimestamps}).
     */
    static final class TimestampReader extends Fixed<FixedSizeBinaryVector> {
        private final DateTimeFormatter format;

        TimestampReader(String path, boolean localZoned) {
            super(path);
            this.format = localZoned ? SQL_TIMESTAMP_LTZ : SQL_TIMESTAMP;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            LocalDateTime value = LocalDateTime.parse(trimmed(text, start, end), format);
            while (index >= vector.getValueCapacity()) {
                vector.reAlloc();
            }
            WideTimestamps.putLocal(vector.getDataBufferAddress(), index, value.toLocalDate().toEpochDay(),
                    value.toLocalTime().toNanoOfDay());
            BitVectorHelper.setBit(vector.getValidityBuffer(), index);
        }
    }

    static final class StringReader extends CsvFieldReader {
        private BaseVariableWidthVector vector;
        private byte[] utf8 = new byte[64];

        StringReader(String path) {
            super(path);
        }

        @Override
        void bind(FieldVector vector) {
            this.vector = (BaseVariableWidthVector) vector;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            int length = encode(text, start, end);
            vector.setSafe(index, utf8, 0, length);
        }

        /** UTF-8 of the chars as Flink's {@code StringData.fromString} encodes them. */
        private int encode(char[] text, int start, int end) {
            if (utf8.length < (end - start) * 3) {
                utf8 = new byte[Math.max((end - start) * 3, utf8.length * 2)];
            }
            byte[] out = utf8;
            int n = 0;
            for (int i = start; i < end; i++) {
                char c = text[i];
                if (c < 0x80) {
                    out[n++] = (byte) c;
                } else if (c < 0x800) {
                    out[n++] = (byte) (0xC0 | (c >> 6));
                    out[n++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1])) {
                    int cp = Character.toCodePoint(c, text[++i]);
                    out[n++] = (byte) (0xF0 | (cp >> 18));
                    out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    out[n++] = (byte) (0x80 | (cp & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    return flinkBytes(text, start, end);
                } else {
                    out[n++] = (byte) (0xE0 | (c >> 12));
                    out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    out[n++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            return n;
        }

        /** Flink's own bytes for text with an unpaired surrogate (rare: only from lenient UTF-8 or escapes). */
        private int flinkBytes(char[] text, int start, int end) {
            byte[] bytes = org.apache.flink.table.data.StringData.fromString(new String(text, start, end - start))
                    .toBytes();
            if (utf8.length < bytes.length) {
                utf8 = new byte[bytes.length];
            }
            System.arraycopy(bytes, 0, utf8, 0, bytes.length);
            return bytes.length;
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }
    }

    static final class BinaryReader extends CsvFieldReader {
        private BaseVariableWidthVector vector;
        private byte[] bytes = new byte[64];

        BinaryReader(String path) {
            super(path);
        }

        @Override
        void bind(FieldVector vector) {
            this.vector = (BaseVariableWidthVector) vector;
        }

        @Override
        void read(char[] text, int start, int end, int index) {
            int max = Base64Text.maxDecodedLength(end - start);
            if (bytes.length < max) {
                bytes = new byte[Math.max(max, bytes.length * 2)];
            }
            vector.setSafe(index, bytes, 0, Base64Text.decode(text, start, end, bytes));
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
        }
    }
}
