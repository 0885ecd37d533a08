package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/**
 * A protobuf enum, written as the varint of its number (int32, so negative numbers take ten bytes), from
 * a VARCHAR holding the value's name or an INT holding its number. As Flink's generated code: an unknown
 * name or number becomes the enum's first value, and so does a null element.
 */
final class PbEnumWriter extends PbWriter {
    private final boolean byName;
    private final byte[][] names;
    private final int[] numbers;
    private final Offsets offsets = new Offsets();
    private long data;

    PbEnumWriter(String path, PbField field, EnumDescriptor type, boolean byName) {
        super(path, field);
        this.byName = byName;
        List<EnumValueDescriptor> values = type.getValues();
        names = new byte[values.size()][];
        numbers = new int[values.size()];
        for (int i = 0; i < values.size(); i++) {
            names[i] = values.get(i).getName().getBytes(StandardCharsets.UTF_8);
            numbers[i] = values.get(i).getNumber();
        }
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        if (byName) {
            offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarCharVector);
            data = address(vector.getDataBuffer(), offsets.last(), "data");
        } else {
            data = address(vector.getDataBuffer(), 4L * count, "data");
        }
    }

    private int number(int index) {
        if (byName) {
            long start = data + offsets.get(index);
            long length = offsets.get(index + 1) - offsets.get(index);
            for (int v = 0; v < names.length; v++) {
                if (names[v].length == length && sameBytes(names[v], start)) {
                    return numbers[v];
                }
            }
            return numbers[0];
        }
        int n = MemoryUtil.getInt(data + 4L * index);
        for (int number : numbers) {
            if (number == n) {
                return n;
            }
        }
        return numbers[0];
    }

    private static boolean sameBytes(byte[] name, long address) {
        for (int i = 0; i < name.length; i++) {
            if (MemoryUtil.getByte(address + i) != name[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    void write(ByteOutput out, int index) {
        out.ensure(PbWire.MAX_VARINT);
        out.putVarint(number(index));
    }

    @Override
    void writeDefault(ByteOutput out) {
        out.ensure(PbWire.MAX_VARINT);
        out.putVarint(numbers[0]);
    }

    @Override
    boolean isDefault(int index) {
        return number(index) == 0;
    }
}
