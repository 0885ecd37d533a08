package io.columnarkafka.format.protobuf;

import org.apache.arrow.vector.FieldVector;

/**
 * Reads one field of a message into one slot of its column, from where the field occurred in the message
 * ({@link PbOccurrences}), with protobuf-java's semantics for a field seen more than once: a scalar keeps its
 * last value, a message merges all of its occurrences, a repeated field or map collects them in order.
 * An unset field is what Flink's converter makes of it: null where Flink checks {@code hasX()} or {@code
 * getXCount() > 0} first, else the getter's default.
 */
abstract class PbFieldReader {
    /** Column path for errors: {@code a}, {@code a.b}, {@code a[]}, {@code a.key}, {@code a.value}. */
    final String path;
    /** The field's index in its message's {@link PbShape}. */
    final int field;

    PbFieldReader(String path, int field) {
        this.path = path;
        this.field = field;
    }

    abstract void bind(FieldVector vector);

    /** Reads occurrences {@code [from, occurrences.count)} (none: the field is unset) into slot {@code index}. */
    abstract void read(PbInput in, PbOccurrences occurrences, int from, int index);
}
