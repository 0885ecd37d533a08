package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import org.apache.arrow.vector.ValueVector;

/** ARRAY (Arrow List or LargeList) as a JSON array; a null element is {@code null}. */
final class ListJsonWriter extends JsonValueWriter {
    private final Offsets offsets = new Offsets();
    private final JsonValueWriter elements;

    ListJsonWriter(String path, JsonValueWriter elements) {
        super(path);
        this.elements = elements;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        bindList(vector, count, offsets, elements);
    }

    @Override
    void write(ByteOutput out, int index) {
        int start = (int) offsets.get(index);
        int end = (int) offsets.get(index + 1);
        out.writeByte((byte) '[');
        for (int i = start; i < end; i++) {
            if (i > start) {
                out.writeByte((byte) ',');
            }
            elements.writeNullable(out, i);
        }
        out.writeByte((byte) ']');
    }
}
