package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;

/**
 * A repeated or map field: written whole by {@link #writeField}, never as one element of something else
 * (protobuf has no repeated of repeated, and map values that are lists are messages), so the element
 * methods are unreachable.
 */
abstract class PbCollectionWriter extends PbWriter {
    PbCollectionWriter(String path, PbField field) {
        super(path, field);
    }

    @Override
    abstract void writeField(ByteOutput out, int index);

    @Override
    final void write(ByteOutput out, int index) {
        throw new IllegalStateException(path + " is a repeated or map field, written by writeField");
    }

    @Override
    final void writeDefault(ByteOutput out) {
        throw new IllegalStateException(path + " is a repeated or map field, never an element");
    }

    @Override
    final boolean isDefault(int index) {
        return false;
    }
}
