package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;

/** BIGINT (Arrow Int64) as an Avro long. */
final class LongAvroWriter extends FixedWidthAvroWriter {

    LongAvroWriter(String path, boolean nullable) {
        super(path, nullable, 8);
    }

    @Override
    void write(ByteOutput out, int index) {
        AvroBinary.writeLong(out, MemoryUtil.getLong(data + 8L * index));
    }
}
