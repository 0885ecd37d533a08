package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BOOLEAN (Arrow Bool, one bit per value) as {@code true} or {@code false}. */
final class BooleanJsonWriter extends FlatJsonWriter {
    private long data;

    BooleanJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (count + 7L) / 8, "data");
    }

    @Override
    long maxBytes() {
        return 5;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        byte[] b = out.buf;
        if ((MemoryUtil.getByte(data + (index >> 3)) & (1 << (index & 7))) != 0) {
            b[p] = 't';
            b[p + 1] = 'r';
            b[p + 2] = 'u';
            b[p + 3] = 'e';
            return p + 4;
        }
        b[p] = 'f';
        b[p + 1] = 'a';
        b[p + 2] = 'l';
        b[p + 3] = 's';
        b[p + 4] = 'e';
        return p + 5;
    }
}
