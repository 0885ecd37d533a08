package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchLayoutException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.LargeListVector;

/** ARRAY (Arrow List or LargeList) as a JSON array; a null element is {@code null}. */
final class ListJsonWriter extends JsonValueWriter {
    private final Offsets offsets = new Offsets();
    private final JsonValueWriter elements;

    ListJsonWriter(String path, JsonValueWriter elements) {
        super(path);
        this.elements = elements;
    }

    @Override
    void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeListVector);
        elements.bind(((FieldVector) vector).getChildrenFromFields().get(0), childCount(path, offsets));
    }

    /** Number of child values the offsets reach, which must fit an int index. */
    static int childCount(String path, Offsets offsets) {
        if (offsets.last() > Integer.MAX_VALUE) {
            throw new BatchLayoutException(path, "offsets reach " + offsets.last() + " child values");
        }
        return (int) offsets.last();
    }

    @Override
    void write(JsonOutput out, int index) {
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
