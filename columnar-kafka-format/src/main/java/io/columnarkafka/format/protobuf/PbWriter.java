package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.arrow.BoundColumn;

/**
 * Writes the values of one Arrow vector as one protobuf field, the way Flink's generated code and
 * protobuf-java's {@code toByteArray()} write it:
 *
 * <ul>
 *   <li>as a field of a message ({@link #writeField}): a null is left unset (nothing written); a value is
 *       set on the builder, so it is written unless the field has no presence (a proto3 singular scalar)
 *       and the value is the type's default, which protobuf skips;
 *   <li>as an element of a repeated field or a map entry ({@link #writeTagged}, {@link #writeValue}): a
 *       null becomes the type's default, which is written.
 * </ul>
 */
abstract class PbWriter extends BoundColumn {
    /** Tag bytes of the field (for a map key or value: of the entry's field 1 or 2). */
    final byte[] tag;
    /** The tag's byte if it is one byte (0..127), else -1: a field read instead of an array's length and element. */
    private final int oneByteTag;
    /** True if a set value is written even when it is the default (proto2, proto3 optional, messages). */
    final boolean presence;
    /** A proto2 required field: a null fails as the builder's {@code build()} fails. */
    private final boolean required;

    PbWriter(String path, PbField field) {
        super(path);
        this.tag = PbWire.tag(field.number(), field.wireType());
        this.oneByteTag = tag.length == 1 ? tag[0] : -1;
        this.presence = field.presence();
        this.required = field.required();
    }

    /** A proto2 required field, which fails on a null. */
    final boolean required() {
        return required;
    }

    /** Writes the non-null value at {@code index} without its tag. */
    abstract void write(ByteOutput out, int index);

    /** Writes the default value Flink puts in place of a null element, without a tag. */
    abstract void writeDefault(ByteOutput out);

    /** True if the non-null value at {@code index} is the default protobuf skips for fields without presence. */
    abstract boolean isDefault(int index);

    /** Writes the value at {@code index} as a field of a message. */
    void writeField(ByteOutput out, int index) {
        if (isNull(index)) {
            if (required) {
                throw new EncodeException(path, out.row(), "required protobuf field is null");
            }
            return;
        }
        if (!presence && isDefault(index)) {
            return;
        }
        writeTag(out);
        write(out, index);
    }

    /** Writes the tag, then the value at {@code index} or the default if it is null. */
    final void writeTagged(ByteOutput out, int index) {
        writeTag(out);
        writeValue(out, index);
    }

    /** Writes the value at {@code index}, or the default if it is null, without a tag. */
    final void writeValue(ByteOutput out, int index) {
        if (isNull(index)) {
            writeDefault(out);
        } else {
            write(out, index);
        }
    }

    final void writeTag(ByteOutput out) {
        out.ensure(tag.length);
        putTag(out);
    }

    /** Writes the tag; the caller has ensured {@code tag.length} bytes. */
    final void putTag(ByteOutput out) {
        if (oneByteTag >= 0) { // field numbers 1..15: no array copy for the usual one-byte tag
            out.buf[out.pos++] = (byte) oneByteTag;
            return;
        }
        System.arraycopy(tag, 0, out.buf, out.pos, tag.length);
        out.pos += tag.length;
    }
}
