package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Avro int from a signed Arrow integer of one, two or four bytes: TINYINT, SMALLINT and INT (widened as
 * Flink widens them), DATE (Arrow Date DAY: epoch days) and TIME (Arrow Time MILLISECOND: millis of day).
 */
final class IntAvroWriter extends FixedWidthAvroWriter {
    IntAvroWriter(String path, boolean nullable, int width) {
        super(path, nullable, width);
    }

    @Override
    void write(ByteOutput out, int index) {
        int value;
        if (width == 4) {
            value = MemoryUtil.getInt(data + 4L * index);
        } else if (width == 2) {
            value = MemoryUtil.getShort(data + 2L * index);
        } else {
            value = MemoryUtil.getByte(data + index);
        }
        AvroBinary.writeLong(out, value);
    }
}
