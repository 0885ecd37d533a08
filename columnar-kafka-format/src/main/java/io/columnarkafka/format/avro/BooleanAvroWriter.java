package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BOOLEAN (Arrow Bool, one bit per value) as one byte, 0 or 1. */
final class BooleanAvroWriter extends AvroValueWriter {
    private long data;

    BooleanAvroWriter(String path, boolean nullable) {
        super(path, nullable);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (count + 7L) / 8, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        out.ensure(1);
        out.buf[out.pos++] = (byte) ((MemoryUtil.getByte(data + (index >> 3)) >> (index & 7)) & 1);
    }
}
