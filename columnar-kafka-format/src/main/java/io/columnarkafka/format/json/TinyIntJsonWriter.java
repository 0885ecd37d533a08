package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** TINYINT (Arrow Int8) as a plain number. */
final class TinyIntJsonWriter extends JsonValueWriter {
    private long data;

    TinyIntJsonWriter(String path) {
        super(path);
    }

    @Override
    void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 1, "data");
    }

    @Override
    void write(JsonOutput out, int index) {
        out.writeInt(MemoryUtil.getByte(data + index));
    }
}
