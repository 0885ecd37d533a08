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
    /**
     * Per field, the bytes written before its value when no field is left out: {@code {"a":} for the
     * first, {@code ,"b":} for the others; one copy per field and no first-field branch.
     */
    private final byte[][] prefixes;
    private final JsonValueWriter[] writers;
    private final boolean ignoreNulls;

    JsonFields(List<String> names, List<JsonValueWriter> writers, boolean ignoreNulls) {
        this.names = new byte[names.size()][];
        this.prefixes = new byte[names.size()][];
        for (int i = 0; i < this.names.length; i++) {
            byte[] name = JsonStrings.fieldName(names.get(i));
            byte[] prefix = new byte[name.length + 1];
            prefix[0] = (byte) (i == 0 ? '{' : ',');
            System.arraycopy(name, 0, prefix, 1, name.length);
            this.names[i] = name;
            this.prefixes[i] = prefix;
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
        if (ignoreNulls) {
            writeSkippingNulls(out, index);
            return;
        }
        if (writers.length == 0) {
            out.ensure(2);
            out.buf[out.pos++] = '{';
            out.buf[out.pos++] = '}';
            return;
        }
        for (int f = 0; f < writers.length; f++) {
            JsonValueWriter writer = writers[f];
            byte[] prefix = prefixes[f];
            // Room for the prefix and a null, so both are stored unchecked.
            out.ensure(prefix.length + 4);
            System.arraycopy(prefix, 0, out.buf, out.pos, prefix.length);
            out.pos += prefix.length;
            if (writer.isNull(index)) {
                putNull(out);
            } else {
                writer.write(out, index);
            }
        }
        out.writeByte((byte) '}');
    }

    /** {@code encode.ignore-null-fields}: a null field is left out, name and all. */
    private void writeSkippingNulls(ByteOutput out, int index) {
        out.writeByte((byte) '{');
        boolean first = true;
        for (int f = 0; f < writers.length; f++) {
            JsonValueWriter writer = writers[f];
            if (writer.isNull(index)) {
                continue;
            }
            writeName(out, f, first);
            first = false;
            writer.write(out, index);
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
        putNull(out);
    }

    /** Stores {@code null}; the caller has ensured 4 bytes. */
    private static void putNull(ByteOutput out) {
        out.buf[out.pos++] = 'n';
        out.buf[out.pos++] = 'u';
        out.buf[out.pos++] = 'l';
        out.buf[out.pos++] = 'l';
    }
}
