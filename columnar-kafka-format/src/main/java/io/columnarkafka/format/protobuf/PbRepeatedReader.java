package io.columnarkafka.format.protobuf;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * A repeated field (ARRAY): the elements of every occurrence in order, each occurrence one element or (a
 * scalar sent packed, whatever the field declares) a run of them; numbers a closed enum does not declare
 * are dropped, as protobuf-java drops them. No element: null if Flink checks {@code getXCount() > 0}
 * ({@code read-default-values} false), else an empty array.
 */
final class PbRepeatedReader extends PbFieldReader {
    /** The element reader of a scalar field, or null. */
    private final PbValueReader scalar;
    /** The element reader of a message field, or null. */
    private final PbMessageReader message;
    /** A scalar that may come packed: a length-delimited occurrence is a run of values. */
    private final boolean packable;
    private final boolean emptyWhenUnset;
    private ListVector vector;

    PbRepeatedReader(String path, int field, PbValueReader scalar, boolean packable, PbMessageReader message,
            boolean emptyWhenUnset) {
        super(path, field);
        this.scalar = scalar;
        this.packable = packable;
        this.message = message;
        this.emptyWhenUnset = emptyWhenUnset;
    }

    @Override
    void bind(FieldVector vector) {
        this.vector = (ListVector) vector;
        FieldVector elements = this.vector.getDataVector();
        if (scalar != null) {
            scalar.bind(elements);
        } else {
            message.bind((StructVector) elements);
        }
    }

    @Override
    void read(PbInput in, PbOccurrences occurrences, int from, int index) {
        int offset = vector.startNewValue(index);
        int n = 0;
        for (int k = from; k < occurrences.count; k++) {
            int start = occurrences.starts[k];
            int end = occurrences.ends[k];
            if (message != null) {
                message.readOne(in, start, end, offset + n++);
                continue;
            }
            int limit = in.limit;
            in.pos = start;
            in.limit = end;
            if (packable && occurrences.wireTypes[k] == PbWire.LENGTH_DELIMITED) {
                while (in.pos < end) {
                    if (scalar.read(in, end, offset + n)) {
                        n++;
                    }
                }
            } else if (scalar.read(in, end, offset + n)) {
                n++;
            }
            in.limit = limit;
        }
        if (n == 0 && !emptyWhenUnset) {
            vector.setNull(index);
        } else {
            vector.endValue(index, n);
        }
    }
}
