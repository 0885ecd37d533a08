package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;

/**
 * A scalar column writer whose values have a size bound known once the batch is bound. {@link
 * JsonFields} adds the bounds of a record's fields up and makes room once per record, so the writers
 * store their bytes with no room check of their own; position and array stay in registers instead of
 * going through {@link ByteOutput}'s fields on every byte.
 */
abstract class FlatJsonWriter extends JsonValueWriter {

    FlatJsonWriter(String path) {
        super(path);
    }

    /**
     * For the batch bound last: the most bytes {@link #put} stores for one non-null value, including
     * bytes it may store past the value's end and that the next value overwrites (word-wide copies).
     */
    abstract long maxBytes();

    /**
     * Stores the non-null value at {@code index} into {@code out.buf} from position {@code p} and returns
     * the position after it; the caller has made room for {@link #maxBytes()} bytes. {@code out} itself is
     * read only for {@link ByteOutput#row()}, which errors name.
     */
    abstract int put(ByteOutput out, int p, int index);

    @Override
    void write(ByteOutput out, int index) {
        out.ensure(maxBytes());
        out.pos = put(out, out.pos, index);
    }
}
