package io.columnarkafka.format.json;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A reader of a variable-width column (strings, bytes): values go straight into the vector's buffers
 * ({@link VariableWidthBuffers}); binding, nulls, truncation and reordering are the same for every such reader.
 */
abstract class VariableWidthJsonReader extends JsonReader {
    final VariableWidthBuffers buffers = new VariableWidthBuffers();

    VariableWidthJsonReader(String path, boolean ignoreParseErrors) {
        super(path, ignoreParseErrors);
    }

    @Override
    final void bind(FieldVector v) {
        buffers.bind((BaseVariableWidthVector) v);
        count = 0;
    }

    @Override
    final void appendNull() {
        buffers.appendNull(count++);
    }

    @Override
    final void truncate(int entries) {
        while (count < entries) {
            appendNull();
        }
        count = entries;
        buffers.truncate(entries);
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
