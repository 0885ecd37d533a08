package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;

/** ROW (Arrow Struct) as an Avro record: its fields one after the other, nothing around them. */
final class RecordAvroWriter extends AvroValueWriter {
    private final AvroValueWriter[] fields;

    RecordAvroWriter(String path, boolean nullable, List<AvroValueWriter> fields) {
        super(path, nullable);
        this.fields = fields.toArray(new AvroValueWriter[0]);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        List<FieldVector> children = ((FieldVector) vector).getChildrenFromFields();
        for (int f = 0; f < fields.length; f++) {
            fields[f].bind(children.get(f), count);
        }
    }

    @Override
    void write(ByteOutput out, int index) {
        for (AvroValueWriter field : fields) {
            field.writeField(out, index);
        }
    }
}
