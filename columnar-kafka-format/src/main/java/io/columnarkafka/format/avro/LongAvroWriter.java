package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BIGINT (Arrow Int64) as an Avro long. */
final class LongAvroWriter extends AvroValueWriter {
    private long data;

    LongAvroWriter(String path, boolean nullable) {
        super(path, nullable);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        AvroBinary.writeLong(out, MemoryUtil.getLong(data + 8L * index));
    }
}
