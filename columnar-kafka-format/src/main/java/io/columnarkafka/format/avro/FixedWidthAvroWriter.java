package io.columnarkafka.format.avro;

import org.apache.arrow.vector.ValueVector;

/**
 * An Avro writer reading values of one fixed width from the vector's data buffer: binds the buffer's
 * address, checked to hold {@code width} bytes per row. Subclasses read at {@code data + width * index}.
 */
abstract class FixedWidthAvroWriter extends AvroValueWriter {
    /** Bytes per value in the data buffer. */
    final int width;
    /** Address of the bound data buffer. */
    long data;

    FixedWidthAvroWriter(String path, boolean nullable, int width) {
        super(path, nullable);
        this.width = width;
    }

    @Override
    protected final void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * width, "data");
    }
}
