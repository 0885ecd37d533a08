package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.Digits;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** SMALLINT (Arrow Int16) as a plain number. */
final class SmallIntJsonWriter extends JsonValueWriter {
    private long data;

    SmallIntJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 2, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        Digits.writeInt(out, MemoryUtil.getShort(data + 2L * index));
    }
}
