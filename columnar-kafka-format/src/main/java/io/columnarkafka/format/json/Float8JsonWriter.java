package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * DOUBLE (Arrow FloatingPoint DOUBLE) spelled by {@link Double#toString}, as Jackson writes it; NaN
 * and the infinities as quoted strings.
 */
final class Float8JsonWriter extends JsonValueWriter {
    private long data;

    Float8JsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        double value = Double.longBitsToDouble(MemoryUtil.getLong(data + 8L * index));
        if (Double.isFinite(value)) {
            out.writeAscii(Double.toString(value));
        } else {
            out.writeByte((byte) '"');
            out.writeAscii(Double.toString(value));
            out.writeByte((byte) '"');
        }
    }
}
