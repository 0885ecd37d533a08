package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.arrow.BoundColumn;

/**
 * Writes the values of one Arrow vector in Avro binary encoding. A nullable Flink type is the union
 * {@code ["null", T]}: a null is branch 0 and nothing else, a value is branch 1 and then the value. A
 * null in a NOT NULL column fails as Flink's {@code GenericDatumWriter} fails on it.
 */
abstract class AvroValueWriter extends BoundColumn {
    private final boolean nullable;

    AvroValueWriter(String path, boolean nullable) {
        super(path);
        this.nullable = nullable;
    }

    /** Writes the non-null value at {@code index}. */
    abstract void write(ByteOutput out, int index);

    /** Writes the value at {@code index} with its union branch if the type is nullable. */
    final void writeField(ByteOutput out, int index) {
        boolean isNull = isNull(index);
        if (nullable) {
            out.ensure(1);
            out.buf[out.pos++] = (byte) (isNull ? 0 : 2); // zig-zag varints of the branches 0 and 1
            if (isNull) {
                return;
            }
        } else if (isNull) {
            throw new EncodeException(path, out.row(), "null value in a NOT NULL column (Avro type has no null)");
        }
        write(out, index);
    }
}
