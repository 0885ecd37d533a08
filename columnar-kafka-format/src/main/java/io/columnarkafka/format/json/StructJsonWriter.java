package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;

/** ROW (Arrow Struct) as a nested JSON object, fields in schema order. */
final class StructJsonWriter extends JsonValueWriter {
    private final JsonFields fields;

    StructJsonWriter(String path, JsonFields fields) {
        super(path);
        this.fields = fields;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        List<FieldVector> children = ((FieldVector) vector).getChildrenFromFields();
        for (int f = 0; f < fields.size(); f++) {
            fields.bind(f, children.get(f), count);
        }
    }

    @Override
    void write(ByteOutput out, int index) {
        fields.write(out, index);
    }

    JsonFields fields() {
        return fields;
    }
}
