package io.columnarkafka.format.protobuf;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * A singular message field (ROW): every occurrence merged, as protobuf-java merges a message seen twice
 * (the same as parsing the occurrences' bytes one after the other); unset, null if Flink checks {@code
 * hasX()} ({@code read-default-values} false), else the default instance's row.
 */
final class PbMessageFieldReader extends PbFieldReader {
    private final PbMessageReader message;
    private final boolean defaultWhenUnset;
    private StructVector vector;

    PbMessageFieldReader(String path, int field, PbMessageReader message, boolean defaultWhenUnset) {
        super(path, field);
        this.message = message;
        this.defaultWhenUnset = defaultWhenUnset;
    }

    @Override
    void bind(FieldVector vector) {
        this.vector = (StructVector) vector;
        message.bind(this.vector);
    }

    @Override
    void read(PbInput in, PbOccurrences occurrences, int from, int index) {
        if (from < occurrences.count || defaultWhenUnset) {
            message.read(in, occurrences, from, index);
        } else {
            vector.setNull(index);
        }
    }
}
