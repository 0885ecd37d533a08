package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import org.apache.arrow.vector.ValueVector;

/**
 * ARRAY (Arrow List or LargeList) as an Avro array, the way Avro's binary encoder blocks it: one block
 * of {@code count} items, then the zero-count end block; an empty array is just the end block.
 */
final class ArrayAvroWriter extends AvroValueWriter {
    private final Offsets offsets = new Offsets();
    private final AvroValueWriter elements;

    ArrayAvroWriter(String path, boolean nullable, AvroValueWriter elements) {
        super(path, nullable);
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
        if (end > start) {
            AvroBinary.writeLong(out, end - start);
            for (int i = start; i < end; i++) {
                elements.writeField(out, i);
            }
        }
        out.writeByte((byte) 0);
    }
}
