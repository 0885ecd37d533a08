package io.columnarkafka.format.json;

import org.apache.arrow.vector.BaseFixedWidthVector;

/**
 * A fixed-width vector's buffer addresses, kept while its buffers stay put, for readers that store values
 * straight into them ({@link ArrowAppend}); Arrow's {@code setSafe} would check capacity and bounds per value.
 */
final class FixedWidthBuffers {
    private BaseFixedWidthVector vector;
    /** Address of the validity buffer. */
    long validity;
    /** Address of the data buffer. */
    long values;
    private int valueCapacity;

    void bind(BaseFixedWidthVector target) {
        vector = target;
        addressesChanged();
    }

    /** Makes room for entry {@code index}, growing the vector through Arrow when it is full. */
    void ensureRoom(int index) {
        if (index >= valueCapacity) {
            while (index >= vector.getValueCapacity()) {
                vector.reAlloc();
            }
            addressesChanged();
        }
    }

    /** {@link JsonReader#reorder} of entries written through these buffers. */
    void reorder(int start, int read, int[] from, int size, EntryReorder reorder) {
        reorder.bits(validity, start, read, from, size);
        int width = vector.getTypeWidth();
        if (width == 0) {
            reorder.bits(values, start, read, from, size); // BOOLEAN: a bit per value
        } else {
            reorder.fixedWidth(values, width, start, read, from, size);
        }
    }

    private void addressesChanged() {
        validity = vector.getValidityBufferAddress();
        values = vector.getDataBufferAddress();
        valueCapacity = vector.getValueCapacity();
    }
}
