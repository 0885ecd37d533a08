package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** TINYINT (Arrow Int8) as a plain number. */
final class TinyIntJsonWriter extends FlatJsonWriter {
    private long data;

    TinyIntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 1, "data");
    }

    @Override
    long maxBytes() {
        return Digits.MAX_LONG_BYTES;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        return Digits.putLong(out.buf, p, MemoryUtil.getByte(data + index));
    }
}
