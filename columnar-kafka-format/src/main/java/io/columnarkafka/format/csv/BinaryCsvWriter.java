package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.text.Base64Text;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.ValueVector;

/** BINARY / VARBINARY (Arrow Binary or LargeBinary) as {@link Base64Text}, a text value. */
final class BinaryCsvWriter extends CsvValueWriter {
    private final Offsets offsets = new Offsets();
    private long data;

    BinaryCsvWriter(String path) {
        super(path, true);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarBinaryVector);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        long start = offsets.get(index);
        long length = offsets.get(index + 1) - start;
        out.ensure(Base64Text.encodedLength(length));
        Base64Text.write(out, data + start, length);
    }
}
