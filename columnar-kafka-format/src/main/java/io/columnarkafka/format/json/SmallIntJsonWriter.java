package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** SMALLINT (Arrow Int16) as a plain number. */
final class SmallIntJsonWriter extends FlatJsonWriter {
    private long data;

    SmallIntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 2, "data");
    }

    @Override
    long maxBytes() {
        return Digits.MAX_LONG_BYTES;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        return Digits.putLong(out.buf, p, MemoryUtil.getShort(data + 2L * index));
    }
}
