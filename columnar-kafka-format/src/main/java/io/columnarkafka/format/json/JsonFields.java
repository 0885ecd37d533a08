package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.ValueVector;

/**
 * The fields of a JSON object, as a record or a nested ROW: their {@code "name":} bytes, escaped once
 * when the plan is built, and their writers. With {@code encode.ignore-null-fields} a null field is
 * left out, as Flink does at every nesting level.
 *
 * <p>Room is made once per run of {@link FlatJsonWriter scalar} fields, for the sum of their bounds in
 * the bound batch (a record of scalars: once per record); the scalar writers then store unchecked. A
 * nested field makes its own room as it goes, and the run after it gets room of its own.
 */
final class JsonFields {
    private final byte[][] names;
    /**
     * Per field, the bytes written before its value when no field is left out ({@code {"a":} for the
     * first, {@code ,"b":} for the others; no first-field branch), as native-order words, the last one
     * padded, stored a word at a time: a name is typically one or two words, cheaper to store whole
     * than to copy byte-exact.
     */
    private final long[][] prefixWords;
    /** The prefixes' lengths in bytes. */
    private final int[] prefixLengths;
    private final JsonValueWriter[] writers;
    /** Per field, its writer if it is a scalar one, or null for a nested field. */
    private final FlatJsonWriter[] flat;
    private final boolean ignoreNulls;
    /**
     * Per field, which scalar writer class it has, so that {@link #write} calls the common classes
     * through a switch and a cast to the final class: the JIT inlines each, where one call site shared by
     * every column type would be megamorphic (a virtual call per field, nothing inlined).
     */
    private final int[] kinds;
    private static final int OTHER = 0;
    private static final int TEXT = 1;
    private static final int BIGINT = 2;
    private static final int TIMESTAMP = 3;
    private static final int INT = 4;
    private static final int FLOATING = 5;
    private static final int DECIMAL = 6;
    private static final int BOOLEAN = 7;
    /**
     * Per field {@code f}, the room the fields from {@code f} on need up to and including the next nested
     * field's prefix (or the closing brace); {@code room[size()]} is the brace's. Used at the first field
     * and after each nested one. Measured from the writers' bounds once per bound batch.
     */
    private final long[] room;
    private boolean measured;

    JsonFields(List<String> names, List<JsonValueWriter> writers, boolean ignoreNulls) {
        this.names = new byte[names.size()][];
        this.prefixWords = new long[names.size()][];
        this.prefixLengths = new int[names.size()];
        for (int i = 0; i < this.names.length; i++) {
            byte[] name = JsonStrings.fieldName(names.get(i));
            byte[] prefix = new byte[name.length + 1];
            prefix[0] = (byte) (i == 0 ? '{' : ',');
            System.arraycopy(name, 0, prefix, 1, name.length);
            this.names[i] = name;
            this.prefixWords[i] = words(prefix);
            this.prefixLengths[i] = prefix.length;
        }
        this.writers = writers.toArray(new JsonValueWriter[0]);
        this.flat = new FlatJsonWriter[this.writers.length];
        for (int i = 0; i < this.writers.length; i++) {
            if (this.writers[i] instanceof FlatJsonWriter scalar) {
                flat[i] = scalar;
            }
        }
        this.kinds = new int[this.writers.length];
        for (int i = 0; i < this.writers.length; i++) {
            kinds[i] = kind(this.writers[i]);
        }
        this.room = new long[this.writers.length + 1];
        this.ignoreNulls = ignoreNulls;
    }

    /** The switch case of {@link #write} that calls {@code writer}'s own class directly. */
    private static int kind(JsonValueWriter writer) {
        if (writer instanceof Utf8JsonWriter) {
            return TEXT;
        } else if (writer instanceof BigIntJsonWriter) {
            return BIGINT;
        } else if (writer instanceof TimestampJsonWriter) {
            return TIMESTAMP;
        } else if (writer instanceof IntJsonWriter) {
            return INT;
        } else if (writer instanceof FloatingJsonWriter) {
            return FLOATING;
        } else if (writer instanceof DecimalJsonWriter) {
            return DECIMAL;
        } else if (writer instanceof BooleanJsonWriter) {
            return BOOLEAN;
        }
        return OTHER;
    }

    /** {@code bytes} as native-order words, at least two, the last one padded with zeros. */
    private static long[] words(byte[] bytes) {
        byte[] padded = Arrays.copyOf(bytes, Math.max(16, (bytes.length + 7) / 8 * 8));
        long[] words = new long[padded.length / 8];
        ByteBuffer.wrap(padded).order(ByteOrder.nativeOrder()).asLongBuffer().get(words);
        return words;
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
        measured = false;
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
        int count = writers.length;
        if (count == 0) {
            out.ensure(2);
            out.buf[out.pos++] = '{';
            out.buf[out.pos++] = '}';
            return;
        }
        if (!measured) {
            measure();
        }
        out.ensure(room[0]);
        int p = out.pos;
        for (int f = 0; f < count; f++) {
            p = putPrefix(out.buf, p, f);
            FlatJsonWriter scalar = flat[f];
            if (scalar != null) {
                if (scalar.isNull(index)) {
                    p = putNull(out.buf, p);
                    continue;
                }
                switch (kinds[f]) {
                    case TEXT:
                        p = ((Utf8JsonWriter) scalar).put(out, p, index);
                        break;
                    case BIGINT:
                        p = ((BigIntJsonWriter) scalar).put(out, p, index);
                        break;
                    case TIMESTAMP:
                        p = ((TimestampJsonWriter) scalar).put(out, p, index);
                        break;
                    case INT:
                        p = ((IntJsonWriter) scalar).put(out, p, index);
                        break;
                    case FLOATING:
                        p = ((FloatingJsonWriter) scalar).put(out, p, index);
                        break;
                    case DECIMAL:
                        p = ((DecimalJsonWriter) scalar).put(out, p, index);
                        break;
                    case BOOLEAN:
                        p = ((BooleanJsonWriter) scalar).put(out, p, index);
                        break;
                    default:
                        p = scalar.put(out, p, index);
                        break;
                }
                continue;
            }
            JsonValueWriter nested = writers[f];
            if (nested.isNull(index)) {
                p = putNull(out.buf, p);
                out.pos = p;
            } else {
                out.pos = p;
                nested.write(out, index);
            }
            out.ensure(room[f + 1]);
            p = out.pos;
        }
        out.buf[p] = '}';
        out.pos = p + 1;
    }

    /** Adds up the room of each run of scalar fields from the bounds of the batch just bound. */
    private void measure() {
        int count = writers.length;
        long after = 1;
        room[count] = after;
        for (int f = count - 1; f >= 0; f--) {
            long prefix = 8L * prefixWords[f].length;
            after = flat[f] == null ? prefix + 4 : prefix + Math.max(4, flat[f].maxBytes()) + after;
            room[f] = after;
        }
        measured = true;
    }

    /**
     * Stores field {@code f}'s prefix at {@code p} as whole words (always two: most names fit, and a
     * fixed count needs no loop); returns the position after the prefix.
     */
    private int putPrefix(byte[] b, int p, int f) {
        long[] words = prefixWords[f];
        ByteOutput.putWord(b, p, words[0]);
        ByteOutput.putWord(b, p + 8, words[1]);
        for (int k = 2; k < words.length; k++) {
            ByteOutput.putWord(b, p + 8 * k, words[k]);
        }
        return p + prefixLengths[f];
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
        out.pos = putNull(out.buf, out.pos);
    }

    /** Stores {@code null} at {@code p}; the caller has made room for 4 bytes. */
    private static int putNull(byte[] b, int p) {
        b[p] = 'n';
        b[p + 1] = 'u';
        b[p + 2] = 'l';
        b[p + 3] = 'l';
        return p + 4;
    }
}
