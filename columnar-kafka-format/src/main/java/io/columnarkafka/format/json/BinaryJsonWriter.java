package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.text.Base64Text;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.ValueVector;

/** BINARY / VARBINARY (Arrow Binary or LargeBinary) as a quoted {@link Base64Text} string. */
final class BinaryJsonWriter extends FlatJsonWriter {
    private final Offsets offsets = new Offsets();
    private long data;

    BinaryJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarBinaryVector);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
    }

    @Override
    long maxBytes() {
        return Base64Text.encodedLength(offsets.maxLength()) + 2;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        long start = offsets.get(index);
        long length = offsets.get(index + 1) - start;
        out.buf[p] = '"';
        out.pos = p + 1;
        Base64Text.write(out, data + start, length);
        out.buf[out.pos] = '"';
        return out.pos + 1;
    }

    @Override
    void write(ByteOutput out, int index) {
        // This value's own room, not the batch's longest (map keys and array elements write one by one).
        long length = offsets.get(index + 1) - offsets.get(index);
        out.ensure(Base64Text.encodedLength(length) + 2);
        out.pos = put(out, out.pos, index);
    }
}
