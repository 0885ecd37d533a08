package io.columnarkafka.format.json;

/**
 * A reader of a fixed-width column (numbers, BOOLEAN, dates, times, timestamps): values go straight into the
 * vector's buffers ({@link FixedWidthBuffers}); nulls, truncation and reordering are the same for every such reader.
 */
abstract class FixedWidthJsonReader extends JsonReader {
    final FixedWidthBuffers buffers = new FixedWidthBuffers();

    FixedWidthJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    final void appendNull() {
        buffers.ensureRoom(count);
        ArrowAppend.setNull(buffers.validity, count++);
    }

    @Override
    final void truncate(int entries) {
        count = entries;
    }

    @Override
    final boolean reordersInPlace() {
        return true;
    }

    @Override
    final void reorder(int start, int read, int[] from, int size, EntryReorder reorder) {
        buffers.reorder(start, read, from, size, reorder);
        count = start + size;
    }
}
