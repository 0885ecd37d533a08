package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import java.util.List;
import org.apache.arrow.vector.ValueVector;

/**
 * The fields of a JSON object, as a record or a nested ROW: their {@code "name":} bytes, escaped once
 * when the plan is built, and their writers. With {@code encode.ignore-null-fields} a null field is
 * left out, as Flink does at every nesting level.
 */
final class JsonFields {
    private final byte[][] names;
    private final JsonValueWriter[] writers;
    private final boolean ignoreNulls;

    JsonFields(List<String> names, List<JsonValueWriter> writers, boolean ignoreNulls) {
        this.names = new byte[names.size()][];
        for (int i = 0; i < this.names.length; i++) {
            this.names[i] = JsonStrings.fieldName(names.get(i));
        }
        this.writers = writers.toArray(new JsonValueWriter[0]);
        this.ignoreNulls = ignoreNulls;
    }

    int size() {
        return writers.length;
    }

    JsonValueWriter writer(int field) {
        return writers[field];
    }

    /** Binds field {@code field} to its vector for values {@code [0, count)}. */
    void bind(int field, ValueVector vector, int count) {
        writers[field].bind(vector, count);
    }

    /** Bytes of every {@code "name":} plus a comma each: what a record spends besides its values. */
    int nameBytes() {
        int total = 2;
        for (byte[] name : names) {
            total += name.length + 1;
        }
        return total;
    }

    /** Writes the object at {@code index}. */
    void write(ByteOutput out, int index) {
        out.writeByte((byte) '{');
        boolean first = true;
        for (int f = 0; f < writers.length; f++) {
            JsonValueWriter writer = writers[f];
            boolean isNull = writer.isNull(index);
            if (isNull && ignoreNulls) {
                continue;
            }
            writeName(out, f, first);
            first = false;
            if (isNull) {
                writeNull(out);
            } else {
                writer.write(out, index);
            }
        }
        out.writeByte((byte) '}');
    }

    void writeName(ByteOutput out, int field, boolean first) {
        byte[] name = names[field];
        out.ensure(name.length + 1);
        if (!first) {
            out.buf[out.pos++] = ',';
        }
        System.arraycopy(name, 0, out.buf, out.pos, name.length);
        out.pos += name.length;
    }

    static void writeNull(ByteOutput out) {
        out.ensure(4);
        out.buf[out.pos++] = 'n';
        out.buf[out.pos++] = 'u';
        out.buf[out.pos++] = 'l';
        out.buf[out.pos++] = 'l';
    }
}
