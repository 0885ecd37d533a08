package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;

/**
 * ROW (Arrow Struct) as a nested protobuf message: tag, length, then its fields ({@link PbMessageFields}).
 * A message field has presence, so a non-null row is written even when empty; a null element is the
 * default instance, an empty message (which fails if the message has a required field).
 */
final class PbMessageWriter extends PbWriter {
    private final PbMessageFields fields;

    PbMessageWriter(String path, PbField field, PbMessageFields fields) {
        super(path, field);
        this.fields = fields;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        fields.bind(((FieldVector) vector).getChildrenFromFields(), count);
    }

    @Override
    void write(ByteOutput out, int index) {
        int lengthAt = PbWire.beginLength(out);
        fields.write(out, index);
        PbWire.endLength(out, lengthAt);
    }

    @Override
    void writeDefault(ByteOutput out) {
        if (fields.anyRequired() != null) {
            // Flink adds the default instance, and the enclosing build() finds it uninitialized
            throw new EncodeException(path, out.row(), "a null element becomes the default instance, which lacks"
                    + " required field '" + fields.anyRequired() + "'");
        }
        out.writeByte((byte) 0);
    }

    @Override
    boolean isDefault(int index) {
        return false;
    }
}
