package io.columnarkafka.format.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.columnarkafka.format.Utf8Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/**
 * The value readers of each protobuf scalar type: int32-like fields as protobuf-java reads them (varints
 * cut to 32 bits, zig-zag for sint32, little-endian for fixed32/sfixed32), int64-like likewise, float and
 * double as raw bits, bool as any non-zero varint, strings as their UTF-8 bytes (malformed UTF-8, possible
 * where protobuf does not validate it, becomes what Java's decoder makes of it, as the getter's {@code
 * toStringUtf8()} does), bytes as they are, and enums by name or number as Flink's converter reads them.
 */
final class PbValueReaders {
    private PbValueReaders() {}

    /** The reader of {@code fd}'s values into a column of enum names ({@code enumByName}) or numbers. */
    static PbValueReader of(FieldDescriptor fd, boolean enumByName) {
        switch (fd.getType()) {
            case INT32:
            case UINT32:
                return new IntReader(fd, IntReader.VARINT);
            case SINT32:
                return new IntReader(fd, IntReader.ZIGZAG);
            case FIXED32:
            case SFIXED32:
                return new IntReader(fd, IntReader.FIXED);
            case INT64:
            case UINT64:
                return new LongReader(fd, IntReader.VARINT);
            case SINT64:
                return new LongReader(fd, IntReader.ZIGZAG);
            case FIXED64:
            case SFIXED64:
                return new LongReader(fd, IntReader.FIXED);
            case FLOAT:
                return new FloatReader(fd);
            case DOUBLE:
                return new DoubleReader(fd);
            case BOOL:
                return new BoolReader(fd);
            case STRING:
                return new BytesReader(fd.isRepeated() ? new byte[0]
                        : ((String) fd.getDefaultValue()).getBytes(StandardCharsets.UTF_8), !fd.needsUtf8Check());
            case BYTES:
                return new BytesReader(fd.isRepeated() ? new byte[0]
                        : ((ByteString) fd.getDefaultValue()).toByteArray(), false);
            case ENUM:
                return enumByName ? new EnumNameReader(fd) : new EnumNumberReader(fd);
            default:
                throw new IllegalArgumentException("protobuf field " + fd.getFullName() + " of type " + fd.getType()
                        + " is not a scalar");
        }
    }

    abstract static class Typed<V extends FieldVector> extends PbValueReader {
        V vector;

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

    static final class IntReader extends Typed<IntVector> {
        static final int VARINT = 0;
        static final int ZIGZAG = 1;
        static final int FIXED = 2;
        private final int encoding;
        private final int defaultValue;

        IntReader(FieldDescriptor fd, int encoding) {
            this.encoding = encoding;
            this.defaultValue = fd.isRepeated() ? 0 : (Integer) fd.getDefaultValue();
        }

        @Override
        boolean read(PbInput in, int end, int index) {
            int value;
            if (encoding == FIXED) {
                value = in.readFixed32();
            } else {
                value = in.readVarint32();
                if (encoding == ZIGZAG) {
                    value = (value >>> 1) ^ -(value & 1);
                }
            }
            vector.setSafe(index, value);
            return true;
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue);
        }
    }

    static final class LongReader extends Typed<BigIntVector> {
        private final int encoding;
        private final long defaultValue;

        LongReader(FieldDescriptor fd, int encoding) {
            this.encoding = encoding;
            this.defaultValue = fd.isRepeated() ? 0L : (Long) fd.getDefaultValue();
        }

        @Override
        boolean read(PbInput in, int end, int index) {
            long value;
            if (encoding == IntReader.FIXED) {
                value = in.readFixed64();
            } else {
                value = in.readVarint64();
                if (encoding == IntReader.ZIGZAG) {
                    value = (value >>> 1) ^ -(value & 1);
                }
            }
            vector.setSafe(index, value);
            return true;
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue);
        }
    }

    static final class FloatReader extends Typed<Float4Vector> {
        private final float defaultValue;

        FloatReader(FieldDescriptor fd) {
            this.defaultValue = fd.isRepeated() ? 0f : (Float) fd.getDefaultValue();
        }

        @Override
        boolean read(PbInput in, int end, int index) {
            vector.setSafe(index, Float.intBitsToFloat(in.readFixed32()));
            return true;
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue);
        }
    }

    static final class DoubleReader extends Typed<Float8Vector> {
        private final double defaultValue;

        DoubleReader(FieldDescriptor fd) {
            this.defaultValue = fd.isRepeated() ? 0d : (Double) fd.getDefaultValue();
        }

        @Override
        boolean read(PbInput in, int end, int index) {
            vector.setSafe(index, Double.longBitsToDouble(in.readFixed64()));
            return true;
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue);
        }
    }

    static final class BoolReader extends Typed<BitVector> {
        private final int defaultValue;

        BoolReader(FieldDescriptor fd) {
            this.defaultValue = !fd.isRepeated() && (Boolean) fd.getDefaultValue() ? 1 : 0;
        }

        @Override
        boolean read(PbInput in, int end, int index) {
            vector.setSafe(index, in.readVarint64() != 0 ? 1 : 0);
            return true;
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue);
        }
    }

    /** string (its UTF-8 bytes) and bytes. */
    static final class BytesReader extends Typed<BaseVariableWidthVector> {
        private final byte[] defaultValue;
        /** Strings protobuf did not validate: malformed UTF-8 goes through Java's decoder. */
        private final boolean repairUtf8;

        BytesReader(byte[] defaultValue, boolean repairUtf8) {
            this.defaultValue = defaultValue;
            this.repairUtf8 = repairUtf8;
        }

        @Override
        boolean read(PbInput in, int end, int index) {
            int start = in.pos;
            if (repairUtf8 && !Utf8Bytes.isWellFormed(in.buf, start, end)) {
                byte[] replaced = new String(in.buf, start, end - start, StandardCharsets.UTF_8)
                        .getBytes(StandardCharsets.UTF_8);
                vector.setSafe(index, replaced, 0, replaced.length);
            } else {
                vector.setSafe(index, in.buf, start, end - start);
            }
            in.pos = end;
            return true;
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue, 0, defaultValue.length);
        }
    }

    /** The numbers an enum declares, ascending, and whether it keeps undeclared numbers (open) or drops them. */
    abstract static class EnumReader<V extends FieldVector> extends Typed<V> {
        final int[] numbers;
        /** The first value declared with each number ({@code forNumber}), by position in {@link #numbers}. */
        final EnumValueDescriptor[] values;
        private final boolean closed;
        final EnumValueDescriptor defaultValue;

        EnumReader(FieldDescriptor fd) {
            EnumDescriptor type = fd.getEnumType();
            List<EnumValueDescriptor> declared = type.getValues();
            this.numbers = declared.stream().mapToInt(EnumValueDescriptor::getNumber).distinct().sorted().toArray();
            this.values = new EnumValueDescriptor[numbers.length];
            for (int i = 0; i < numbers.length; i++) {
                values[i] = type.findValueByNumber(numbers[i]);
            }
            this.closed = fd.legacyEnumFieldTreatedAsClosed();
            this.defaultValue = fd.isRepeated() ? type.getValues().get(0) : (EnumValueDescriptor) fd.getDefaultValue();
        }

        @Override
        final boolean read(PbInput in, int end, int index) {
            int number = in.readVarint32();
            int known = Arrays.binarySearch(numbers, number);
            if (known < 0 && closed) {
                return false;
            }
            write(known, index);
            return true;
        }

        /** Writes the value at {@code known} in {@link #values}, or (negative) an undeclared one of an open enum. */
        abstract void write(int known, int index);
    }

    /** By name: the declared name, or {@code UNRECOGNIZED} (the open enum's {@code toString()}). */
    static final class EnumNameReader extends EnumReader<BaseVariableWidthVector> {
        private static final byte[] UNRECOGNIZED = "UNRECOGNIZED".getBytes(StandardCharsets.UTF_8);
        private final byte[][] names;
        private final byte[] defaultName;

        EnumNameReader(FieldDescriptor fd) {
            super(fd);
            this.names = new byte[values.length][];
            for (int i = 0; i < values.length; i++) {
                names[i] = values[i].getName().getBytes(StandardCharsets.UTF_8);
            }
            this.defaultName = defaultValue.getName().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        void write(int known, int index) {
            byte[] name = known < 0 ? UNRECOGNIZED : names[known];
            vector.setSafe(index, name, 0, name.length);
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultName, 0, defaultName.length);
        }
    }

    /** By number: the number; an undeclared one of an open enum fails ({@code UNRECOGNIZED.getNumber()} throws). */
    static final class EnumNumberReader extends EnumReader<IntVector> {
        EnumNumberReader(FieldDescriptor fd) {
            super(fd);
        }

        @Override
        void write(int known, int index) {
            if (known < 0) {
                throw new PbInput.Malformed("Can't get the number of an unknown enum value"
                        + " (Flink reads an undeclared number of an open enum through UNRECOGNIZED.getNumber())");
            }
            vector.setSafe(index, numbers[known]);
        }

        @Override
        void writeDefault(int index) {
            vector.setSafe(index, defaultValue.getNumber());
        }
    }
}
