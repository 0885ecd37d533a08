package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * FLOAT (Arrow FloatingPoint SINGLE) spelled by {@link Float#toString}, as Jackson writes it; NaN
 * and the infinities as quoted strings.
 */
final class Float4JsonWriter extends JsonValueWriter {
    private long data;

    Float4JsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 4, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        float value = Float.intBitsToFloat(MemoryUtil.getInt(data + 4L * index));
        if (Float.isFinite(value)) {
            out.writeAscii(Float.toString(value));
        } else {
            out.writeByte((byte) '"');
            out.writeAscii(Float.toString(value));
            out.writeByte((byte) '"');
        }
    }
}
