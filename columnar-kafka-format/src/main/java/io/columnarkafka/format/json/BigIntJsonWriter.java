package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BIGINT (Arrow Int64) as a plain number. */
final class BigIntJsonWriter extends FlatJsonWriter {
    private long data;

    BigIntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    long maxBytes() {
        return Digits.MAX_LONG_BYTES;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        return Digits.putLong(out.buf, p, MemoryUtil.getLong(data + 8L * index));
    }
}
