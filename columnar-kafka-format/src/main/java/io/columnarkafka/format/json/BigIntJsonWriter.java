package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BIGINT (Arrow Int64) as a plain number. */
final class BigIntJsonWriter extends JsonValueWriter {
    private long data;

    BigIntJsonWriter(String path) {
        super(path);
    }

    @Override
    void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    void write(JsonOutput out, int index) {
        out.writeLong(MemoryUtil.getLong(data + 8L * index));
    }
}
