package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import org.apache.arrow.vector.ValueVector;

/**
 * ARRAY (Arrow List or LargeList) as a repeated field. Packed ({@code FieldDescriptor.isPacked()}: proto3
 * scalars by default, proto2 with {@code [packed = true]}): one length-delimited value holding the element
 * values; otherwise each element with its own tag. Null elements are the element type's default; an empty
 * array writes nothing.
 */
final class PbRepeatedWriter extends PbCollectionWriter {
    private final Offsets offsets = new Offsets();
    private final PbWriter elements;
    private final boolean packed;

    PbRepeatedWriter(String path, PbField field, PbWriter elements, boolean packed) {
        super(path, field);
        this.elements = elements;
        this.packed = packed;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        bindList(vector, count, offsets, elements);
    }

    @Override
    void writeField(ByteOutput out, int index) {
        if (isNull(index)) {
            return;
        }
        int start = (int) offsets.get(index);
        int end = (int) offsets.get(index + 1);
        if (end == start) {
            return;
        }
        if (packed) {
            writeTag(out);
            int lengthAt = PbWire.beginLength(out);
            for (int i = start; i < end; i++) {
                elements.writeValue(out, i);
            }
            PbWire.endLength(out, lengthAt);
        } else {
            for (int i = start; i < end; i++) {
                elements.writeTagged(out, i);
            }
        }
    }
}
