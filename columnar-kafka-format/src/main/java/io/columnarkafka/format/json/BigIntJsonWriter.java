package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BIGINT (Arrow Int64) as a plain number. */
final class BigIntJsonWriter extends JsonValueWriter {
    private long data;

    BigIntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        Digits.writeLong(out, MemoryUtil.getLong(data + 8L * index));
    }
}
