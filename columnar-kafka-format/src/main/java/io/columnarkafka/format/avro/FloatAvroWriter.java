package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * FLOAT and DOUBLE (Arrow FloatingPoint SINGLE, DOUBLE): the raw IEEE 754 bits little-endian, as Avro's
 * {@code BinaryData.encodeFloat/encodeDouble} write them ({@code floatToRawIntBits}, so NaN payloads pass
 * through unchanged). Arrow stores the same little-endian bits, so a value is one copy.
 */
final class FloatAvroWriter extends FixedWidthAvroWriter {
    FloatAvroWriter(String path, boolean nullable, int width) {
        super(path, nullable, width);
    }

    @Override
    void write(ByteOutput out, int index) {
        out.ensure(width);
        out.copyFromMemory(data + (long) width * index, width);
    }
}
