package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** INT (Arrow Int32) as a plain number; also the counts of a MULTISET. */
final class IntJsonWriter extends FlatJsonWriter {
    private long data;

    IntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 4, "data");
    }

    @Override
    long maxBytes() {
        return Digits.MAX_LONG_BYTES;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        return Digits.putLong(out.buf, p, MemoryUtil.getInt(data + 4L * index));
    }
}
