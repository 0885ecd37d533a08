package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BOOLEAN (Arrow Bool, one bit per value) as {@code true} or {@code false}. */
final class BooleanJsonWriter extends JsonValueWriter {
    private long data;

    BooleanJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (count + 7L) / 8, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        out.ensure(5);
        byte[] b = out.buf;
        int p = out.pos;
        if ((MemoryUtil.getByte(data + (index >> 3)) & (1 << (index & 7))) != 0) {
            b[p] = 't';
            b[p + 1] = 'r';
            b[p + 2] = 'u';
            b[p + 3] = 'e';
            out.pos = p + 4;
        } else {
            b[p] = 'f';
            b[p + 1] = 'a';
            b[p + 2] = 'l';
            b[p + 3] = 's';
            b[p + 4] = 'e';
            out.pos = p + 5;
        }
    }
}
