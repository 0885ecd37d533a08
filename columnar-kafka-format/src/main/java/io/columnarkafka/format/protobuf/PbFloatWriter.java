package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * FLOAT / DOUBLE (Arrow FloatingPoint) as protobuf float (fixed32) / double (fixed64): the raw IEEE 754
 * bits little-endian, the layout Arrow already has. protobuf skips a default only when the raw bits are
 * zero, so -0.0 is written.
 */
final class PbFloatWriter extends PbWriter {
    private final int width;
    private long data;

    PbFloatWriter(String path, PbField field, int width) {
        super(path, field);
        this.width = width;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * width, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        out.ensure(width);
        out.copyFromMemory(data + (long) width * index, width);
    }

    @Override
    void writeDefault(ByteOutput out) {
        out.ensure(width);
        for (int i = 0; i < width; i++) {
            out.buf[out.pos++] = 0;
        }
    }

    @Override
    boolean isDefault(int index) {
        return width == 4 ? MemoryUtil.getInt(data + 4L * index) == 0 : MemoryUtil.getLong(data + 8L * index) == 0;
    }
}
