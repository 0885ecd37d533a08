package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.ValueVector;

/** BINARY / VARBINARY (Arrow Binary or LargeBinary) as Avro bytes: length, then the bytes as they are. */
final class BinaryAvroWriter extends AvroValueWriter {
    private final Offsets offsets = new Offsets();
    private long data;

    BinaryAvroWriter(String path, boolean nullable) {
        super(path, nullable);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarBinaryVector);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        long start = offsets.get(index);
        AvroBinary.writeBytes(out, data + start, StringAvroWriter.length(path, offsets.get(index + 1) - start));
    }
}
