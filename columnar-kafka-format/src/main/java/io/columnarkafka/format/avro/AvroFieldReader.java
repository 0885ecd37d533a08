package io.columnarkafka.format.avro;

import org.apache.arrow.vector.FieldVector;

/**
 * Reads one Avro value of Flink's schema into one slot of an Arrow vector, as Flink's {@code
 * AvroToRowDataConverters} converts what Avro's {@code GenericDatumReader} read. Planned once per column
 * and nested type; {@link #bind} points it at each batch's vector.
 */
abstract class AvroFieldReader {
    /** Column path for errors. */
    final String path;
    /** The schema is the union {@code ["null", T]}: a branch index precedes the value. */
    private final boolean nullable;

    AvroFieldReader(String path, boolean nullable) {
        this.path = path;
        this.nullable = nullable;
    }

    abstract void bind(FieldVector vector);

    abstract FieldVector vector();

    /** Reads the value (with its union branch if nullable) into slot {@code index}. */
    final void read(AvroInput in, int index) {
        if (isNullBranch(in)) {
            vector().setNull(index);
            return;
        }
        readValue(in, index);
    }

    /**
     * Moves past the value (with its union branch if nullable), failing where Avro's reader fails on it;
     * what only Flink's converter refuses (a zero-length decimal) is left to {@link #read}.
     */
    final void skip(AvroInput in) {
        if (!isNullBranch(in)) {
            skipValue(in);
        }
    }

    private boolean isNullBranch(AvroInput in) {
        if (!nullable) {
            return false;
        }
        int branch = in.readInt();
        if (branch != 0 && branch != 1) {
            throw new AvroInput.Malformed("union branch " + branch + " of a 2-branch union");
        }
        return branch == 0;
    }

    abstract void readValue(AvroInput in, int index);

    abstract void skipValue(AvroInput in);
}
