package io.columnarkafka.format.protobuf;

import org.apache.arrow.vector.FieldVector;

/**
 * Reads one protobuf value of a scalar field (a singular field, an element of a repeated field, a map key
 * or value) into one slot of an Arrow vector, as Flink's generated converter turns what protobuf-java
 * parsed into a {@code RowData} value. Planned once per column; {@link #bind} points it at each batch's
 * vector.
 */
abstract class PbValueReader {
    abstract void bind(FieldVector vector);

    abstract FieldVector vector();

    /**
     * Reads the value at {@code in.pos} (a length-delimited value: the payload {@code [in.pos, end)}) into
     * slot {@code index}, leaving {@code in.pos} after it.
     *
     * @return false if protobuf-java drops the value (a number a closed enum does not declare) and nothing
     *     was written
     */
    abstract boolean read(PbInput in, int end, int index);

    /** Writes the field's default value (protobuf-java's getter of an unset field) into slot {@code index}. */
    abstract void writeDefault(int index);
}
