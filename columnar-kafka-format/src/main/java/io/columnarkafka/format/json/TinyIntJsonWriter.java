package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** TINYINT (Arrow Int8) as a plain number. */
final class TinyIntJsonWriter extends JsonValueWriter {
    private long data;

    TinyIntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 1, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        Digits.writeInt(out, MemoryUtil.getByte(data + index));
    }
}
