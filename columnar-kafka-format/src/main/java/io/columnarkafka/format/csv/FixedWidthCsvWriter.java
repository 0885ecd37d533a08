package io.columnarkafka.format.csv;

import org.apache.arrow.vector.ValueVector;

/**
 * A CSV writer reading values of one fixed width from the vector's data buffer: binds the buffer's
 * address, checked to hold {@code width} bytes per row. Subclasses read at {@code data + width * index}.
 */
abstract class FixedWidthCsvWriter extends CsvValueWriter {
    /** Bytes per value in the data buffer. */
    final int width;
    /** Address of the bound data buffer. */
    long data;

    FixedWidthCsvWriter(String path, boolean textual, int width) {
        super(path, textual);
        this.width = width;
    }

    @Override
    protected final void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * width, "data");
    }
}
