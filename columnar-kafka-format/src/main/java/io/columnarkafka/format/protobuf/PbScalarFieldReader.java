package io.columnarkafka.format.protobuf;

import org.apache.arrow.vector.FieldVector;

/** A singular scalar field: its last value; unset, the getter's default or (Flink checked {@code hasX()}) null. */
final class PbScalarFieldReader extends PbFieldReader {
    private final PbValueReader value;
    private final boolean defaultWhenUnset;

    PbScalarFieldReader(String path, int field, PbValueReader value, boolean defaultWhenUnset) {
        super(path, field);
        this.value = value;
        this.defaultWhenUnset = defaultWhenUnset;
    }

    @Override
    void bind(FieldVector vector) {
        value.bind(vector);
    }

    @Override
    void read(PbInput in, PbOccurrences occurrences, int from, int index) {
        int last = occurrences.count - 1;
        if (last >= from) {
            int limit = in.limit;
            in.pos = occurrences.starts[last];
            in.limit = occurrences.ends[last];
            value.read(in, occurrences.ends[last], index);
            in.limit = limit;
        } else if (defaultWhenUnset) {
            value.writeDefault(index);
        } else {
            value.vector().setNull(index);
        }
    }
}
