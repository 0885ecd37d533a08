package io.columnarkafka.format.json;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * MAP and MULTISET as Flink's map converter: a JSON object (anything else fails: "Illegal JSON map
 * data..."), read as key token, next token, value token until the next {@code END_OBJECT}; keys through the
 * string converter (so a null key is possible after a value of the wrong shape). Flink collects entries in
 * a {@code HashMap}, so a repeated key keeps one entry with the later value; entry order in Flink is the
 * hash order, i.e. no order, and here it is the order of each key's last occurrence.
 *
 * <p>Repeated keys are rare, so they are handled by reading the map twice: the first pass finds them; the
 * second, from the same tokenizer position, writes only each key's last entry.
 */
final class MapJsonReader extends JsonReader {
    private final JsonReader key;
    private final JsonReader value;
    private final JsonTokenizer.Mark mark = new JsonTokenizer.Mark();
    private boolean[] dropped = new boolean[16];
    private MapVector vector;
    private StructVector entries;
    private VarCharVector keys;

    MapJsonReader(String path, boolean ignoreParseErrors, JsonReader key, JsonReader value) {
        super(path, ignoreParseErrors);
        this.key = key;
        this.value = value;
    }

    @Override
    void bind(FieldVector v) {
        vector = (MapVector) v;
        count = 0;
        entries = (StructVector) vector.getDataVector();
        keys = (VarCharVector) entries.getChildByOrdinal(0);
        key.bind(keys);
        value.bind((FieldVector) entries.getChildByOrdinal(1));
    }

    @Override
    void readValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_OBJECT) {
            throw new JsonReadException("Illegal JSON map data...");
        }
        int index = count;
        int start = vector.startNewValue(index);
        t.mark(mark);
        int read = readEntries(t, start, null);
        if (read > 1 && findRepeats(start, read)) {
            key.truncate(start);
            value.truncate(start);
            t.reset(mark);
            readEntries(t, start, dropped);
        }
        vector.endValue(index, key.count - start);
        count++;
    }

    /** Appends an empty map: what Flink's tree deserializer makes of a value that is not an object. */
    void appendEmpty() {
        vector.startNewValue(count);
        vector.endValue(count, 0);
        count++;
    }

    /** Reads the entries, leaving out those {@code drop} marks; returns how many were read. */
    private int readEntries(JsonTokenizer t, int start, boolean[] drop) {
        int read = 0;
        while (nextEntry(t)) {
            int entry = key.count;
            key.read(t);
            t.next();
            value.read(t);
            if (drop != null && drop[read]) {
                key.truncate(entry);
                value.truncate(entry);
            } else {
                entries.setIndexDefined(entry);
            }
            read++;
        }
        return read;
    }

    /** Marks in {@link #dropped} every entry whose key comes again later; true if there is one. */
    private boolean findRepeats(int start, int read) {
        if (dropped.length < read) {
            dropped = new boolean[Math.max(read, dropped.length * 2)];
        }
        boolean any = false;
        for (int i = 0; i < read; i++) {
            dropped[i] = false;
            for (int j = i + 1; j < read; j++) {
                if (sameKey(start + i, start + j)) {
                    dropped[i] = true;
                    any = true;
                    break;
                }
            }
        }
        return any;
    }

    private boolean sameKey(int a, int b) {
        boolean nullA = keys.isNull(a);
        if (nullA || keys.isNull(b)) {
            return nullA == keys.isNull(b);
        }
        ArrowBuf offsets = keys.getOffsetBuffer();
        ArrowBuf data = keys.getDataBuffer();
        long width = VarCharVector.OFFSET_WIDTH;
        return ByteFunctionHelpers.equal(data, offsets.getInt(a * width), offsets.getInt((a + 1) * width),
                data, offsets.getInt(b * width), offsets.getInt((b + 1) * width)) != 0;
    }

    /**
     * With checking key and value readers ({@link JsonReaderPlan}): every entry checked, a repeated key's
     * earlier values too (Flink converts each before its {@code HashMap} keeps the last), nothing written.
     */
    @Override
    void checkValue(JsonTokenizer t) {
        if (t.current() != JsonTokenizer.START_OBJECT) {
            throw new JsonReadException("Illegal JSON map data...");
        }
        while (nextEntry(t)) {
            key.read(t);
            t.next();
            value.read(t);
        }
    }

    /** Moves to the next entry's key; false at the map's end. */
    private static boolean nextEntry(JsonTokenizer t) {
        int token = t.next();
        if (token == JsonTokenizer.END_OBJECT) {
            return false;
        }
        if (token == JsonTokenizer.NONE && t.atEnd()) {
            // Flink would loop here forever; see JsonTokenizer.atEnd.
            throw JsonReadException.pastEnd("a map");
        }
        return true;
    }

    @Override
    void appendNull() {
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
        int children = vector.getOffsetBuffer().getInt((long) entries * MapVector.OFFSET_WIDTH);
        key.truncate(children);
        value.truncate(children);
        // Only ever lowered: a null entry (setNull) does not advance it, and the offsets it skips are filled later.
        vector.setLastSet(Math.min(vector.getLastSet(), entries - 1));
    }
}
