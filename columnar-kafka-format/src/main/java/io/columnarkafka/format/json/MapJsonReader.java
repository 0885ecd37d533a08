package io.columnarkafka.format.json;

import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.StringDataHash;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.StringData;

/**
 * MAP and MULTISET as Flink's map converter: a JSON object (anything else fails: "Illegal JSON map
 * data..."), read as key token, next token, value token until the next {@code END_OBJECT}; keys through the
 * string converter (so a null key is possible after a value of the wrong shape). Flink puts the entries into a
 * {@code new HashMap()} keyed by {@code StringData}, so the map holds a repeated key once, at its first position with
 * its last value, and its entries come out in the HashMap's order; so do ours.
 *
 * <p>Flink's order comes from the keys ({@link HashMapOrder#growing} over their {@code StringData} hashes, or a real
 * HashMap of them where only one knows). The entries are read in the JSON's order as Flink converts them, then,
 * where Flink's order differs, put into it ({@link #readThenReorder}): scalar values are moved in their vectors
 * ({@link JsonReader#reorder}); nested values are read again from the tokenizer's position marked before each entry.
 * Where values hold maps themselves, which that would read twice at every level, the keys are read first with the
 * values skipped, then each entry once from its mark ({@link #readByKeys}), unless only the JSON's order decides as
 * Flink does (a repeated key, a failure, {@code ignore-parse-errors}).
 */
final class MapJsonReader extends JsonReader {
    private final JsonReader key;
    private final JsonReader value;
    /** Whether a value holds maps, which a second read of this map would read twice too ({@link #readByKeys}). */
    private final boolean valueHoldsMaps;
    /**
     * Whether maps are read as Flink's tree deserializer reads them (inside the changelog formats): Jackson's object
     * node keeps a repeated key's last value only, so an earlier value of the key is never converted and its failure
     * is none ({@link #readTreeValue}).
     */
    private final boolean tree;
    /** In a tree map: the failure of each entry's value (entries from the map's first), null where it was read. */
    private RuntimeException[] valueFailures = new RuntimeException[16];
    private int failedValues;
    /**
     * Whether keys and values are scalars, which a map's entries put into Flink's order in their vectors: no mark,
     * no second read.
     */
    private final boolean scalarEntries;
    private final EntryReorder entryReorder = new EntryReorder();
    /**
     * The tokenizer before each entry of the current map (and before its end): where each is read again from, unless
     * the map has {@link #scalarEntries}.
     */
    private JsonTokenizer.Mark[] marks = newMarks(new JsonTokenizer.Mark[0], 16);
    private final HashMapOrder hashMapOrder = new HashMapOrder();
    private final EntryKeys entryKeys = new EntryKeys();
    private byte[] keyBytes = new byte[64];
    /** Flink's order of the current map: per entry written, the entries its key and its value are read from. */
    private int[] keyAt = new int[16];
    private int[] valueAt = new int[16];
    private int size;
    private MapVector vector;
    private StructVector entries;
    private VarCharVector keys;

    MapJsonReader(String path, boolean ignoreParseErrors, JsonReader key, JsonReader value, boolean valueHoldsMaps,
            boolean tree) {
        super(path, ignoreParseErrors);
        this.key = key;
        this.value = value;
        this.valueHoldsMaps = valueHoldsMaps;
        this.tree = tree;
        this.scalarEntries = key.reordersInPlace() && value.reordersInPlace();
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
        // Reading twice costs little where a value holds no map (nothing where the map is in Flink's order already,
        // or its values are scalars); where values hold maps, reading twice at each level would cost twice per level,
        // so the keys decide the order first.
        if (!valueHoldsMaps || ignoreParseErrors || !readByKeys(t, start)) {
            readThenReorder(t, start);
        }
        vector.endValue(index, key.count - start);
        count++;
    }

    /**
     * Reads the keys, skipping the values, then the entries in Flink's order, each value read once. False, with
     * nothing written and the map's start current again, where only reading in the JSON's order decides: a repeated
     * key (Flink converts every value, the ones its map drops too) or any failure (Flink fails on the first value in
     * the JSON's order). Not under {@code ignore-parse-errors}, where a failing value leaves the tokenizer where the
     * failure left it, inside the value, and what follows is read from there.
     */
    private boolean readByKeys(JsonTokenizer t, int start) {
        int read = 0;
        try {
            while (true) {
                t.mark(markOf(read));
                if (!nextEntry(t)) {
                    break;
                }
                key.read(t);
                t.next();
                JsonRowFields.skipValue(t);
                read++;
            }
            orderOf(start, read);
            key.truncate(start);
            if (size < read) {
                t.reset(marks[0]);
                return false;
            }
            for (int j = 0; j < size; j++) {
                t.reset(marks[keyAt[j]]);
                nextEntry(t);
                appendEntry(t);
            }
            t.reset(marks[read]);
            nextEntry(t); // the map's end, current again
            return true;
        } catch (RuntimeException e) {
            key.truncate(start);
            value.truncate(start);
            t.reset(marks[0]);
            return false;
        }
    }

    /**
     * Reads the entries in the JSON's order, as Flink converts them, then, where Flink's order differs, puts them in
     * that order: moved in their vectors where the map has {@link #scalarEntries}, else read again from their marks
     * (the same tokens, so the same values).
     */
    private void readThenReorder(JsonTokenizer t, int start) {
        if (failedValues > 0) { // left by a tree map that failed before its end
            Arrays.fill(valueFailures, null);
            failedValues = 0;
        }
        int read = 0;
        while (true) {
            if (!scalarEntries) {
                t.mark(markOf(read));
            }
            if (!nextEntry(t)) {
                break;
            }
            appendEntry(t, tree ? read : -1);
            read++;
        }
        boolean inFlinksOrder = read < 2 || orderOf(start, read);
        if (failedValues > 0) {
            throwFailureFlinkConverts(read);
        }
        if (inFlinksOrder) {
            return;
        }
        if (scalarEntries) {
            key.reorder(start, read, keyAt, size, entryReorder);
            value.reorder(start, read, valueAt, size, entryReorder);
        } else {
            readAgainInOrder(t, start, read);
        }
    }

    /** Reads the {@code read} entries again from their marks, in Flink's order ({@link #orderOf}). */
    private void readAgainInOrder(JsonTokenizer t, int start, int read) {
        key.truncate(start);
        value.truncate(start);
        for (int j = 0; j < size; j++) {
            t.reset(marks[keyAt[j]]);
            nextEntry(t);
            if (valueAt[j] == keyAt[j]) {
                appendEntry(t);
            } else {
                int entry = key.count;
                key.read(t);
                t.reset(marks[valueAt[j]]);
                nextEntry(t);
                t.next();
                value.read(t);
                entries.setIndexDefined(entry);
            }
        }
        t.reset(marks[read]);
        nextEntry(t); // the map's end, current again
    }

    /**
     * Reads the value of entry {@code e} of a tree map: a value that fails is consumed whole (as the tree held it),
     * written as a null and its failure kept, thrown once the map is read only if no later value of the key replaces
     * it ({@link #throwFailureFlinkConverts}).
     */
    private void readTreeValue(JsonTokenizer t, int e) {
        int at = value.count;
        try {
            value.read(t);
        } catch (RuntimeException failure) {
            if (!isSkippable(failure)) {
                throw failure;
            }
            value.truncate(at);
            value.appendNull();
            if (valueFailures.length <= e) {
                valueFailures = Arrays.copyOf(valueFailures, Math.max(e + 1, valueFailures.length * 2));
            }
            valueFailures[e] = failure;
            failedValues++;
        }
    }

    /**
     * Throws the failure of a tree map's value Flink converts first, if one failed: Flink converts the object node's
     * fields in the order of their keys' first appearance, each with its key's last value ({@link #keyAt}, {@link
     * #valueAt}; the one entry of a map of fewer than two). Otherwise the failed values were each replaced by a later
     * one and are no failure; the order leaves them out.
     */
    private void throwFailureFlinkConverts(int read) {
        RuntimeException first = null;
        if (read < 2) {
            first = valueFailures[0];
        } else {
            int firstKey = Integer.MAX_VALUE;
            for (int j = 0; j < size; j++) {
                RuntimeException failure = valueFailures[valueAt[j]];
                if (failure != null && keyAt[j] < firstKey) {
                    first = failure;
                    firstKey = keyAt[j];
                }
            }
        }
        Arrays.fill(valueFailures, 0, read, null);
        failedValues = 0;
        if (first != null) {
            throw first;
        }
    }

    /** Appends the entry whose key is the current token. */
    private void appendEntry(JsonTokenizer t) {
        appendEntry(t, -1);
    }

    /**
     * As {@link #appendEntry(JsonTokenizer)}; {@code treeEntry} is the entry's index in a tree map, whose value is
     * read by {@link #readTreeValue}, or -1.
     */
    private void appendEntry(JsonTokenizer t, int treeEntry) {
        int entry = key.count;
        key.read(t);
        t.next();
        if (treeEntry < 0) {
            value.read(t);
        } else {
            readTreeValue(t, treeEntry);
        }
        entries.setIndexDefined(entry);
    }

    /** The mark before entry {@code entry} (or before the map's end), made as needed. */
    private JsonTokenizer.Mark markOf(int entry) {
        if (entry == marks.length) {
            marks = newMarks(marks, marks.length * 2);
        }
        return marks[entry];
    }

    private static JsonTokenizer.Mark[] newMarks(JsonTokenizer.Mark[] old, int length) {
        JsonTokenizer.Mark[] grown = Arrays.copyOf(old, length);
        for (int i = old.length; i < length; i++) {
            grown[i] = new JsonTokenizer.Mark();
        }
        return grown;
    }

    /**
     * Puts Flink's order of the {@code read} keys written from {@code start} into {@link #keyAt}, {@link #valueAt}
     * and {@link #size} (entry indexes from 0); true when it is the JSON's order with no repeated key.
     */
    private boolean orderOf(int start, int read) {
        if (hashMapOrder.growing(entryKeys, start, start + read)) {
            size = hashMapOrder.size;
            ensureOrderCapacity(size);
            for (int j = 0; j < size; j++) {
                keyAt[j] = hashMapOrder.keyEntry[j] - start;
                valueAt[j] = hashMapOrder.valueEntry[j] - start;
            }
        } else {
            orderOfARealHashMap(start, read);
        }
        boolean inputOrder = size == read;
        for (int j = 0; j < size && inputOrder; j++) {
            inputOrder = keyAt[j] == j && valueAt[j] == j;
        }
        return inputOrder;
    }

    /**
     * Flink's order from a real {@code HashMap} of the keys as {@code StringData}, filled as Flink fills it, where
     * {@link HashMapOrder} gives up (a bucket HashMap would make a tree of, or resize early for).
     */
    private void orderOfARealHashMap(int start, int read) {
        Map<StringData, int[]> map = new HashMap<>();
        for (int e = 0; e < read; e++) {
            StringData k = keys.isNull(start + e) ? null : StringData.fromBytes(keys.get(start + e));
            int[] at = map.get(k);
            if (at == null) {
                map.put(k, new int[] {e, e});
            } else {
                at[1] = e;
            }
        }
        size = map.size();
        ensureOrderCapacity(size);
        int j = 0;
        for (int[] at : map.values()) {
            keyAt[j] = at[0];
            valueAt[j] = at[1];
            j++;
        }
    }

    private void ensureOrderCapacity(int entries) {
        if (keyAt.length < entries) {
            keyAt = new int[Math.max(entries, keyAt.length * 2)];
            valueAt = new int[keyAt.length];
        }
    }

    /** Appends an empty map: what Flink's tree deserializer makes of a value that is not an object. */
    void appendEmpty() {
        vector.startNewValue(count);
        vector.endValue(count, 0);
        count++;
    }

    /**
     * The keys written for the current map, as Flink's {@code StringData} keys hash and compare; read through the
     * buffers' addresses, as the readers wrote them (an {@code ArrowBuf} checks bounds per read).
     */
    private final class EntryKeys implements HashMapOrder.Keys {
        @Override
        public long hash(int entry) {
            if (isNull(entry)) {
                return 0; // HashMap's hash of a null key
            }
            int from = offset(entry);
            int length = offset(entry + 1) - from;
            if (keyBytes.length < length) {
                keyBytes = new byte[Math.max(length, keyBytes.length * 2)];
            }
            MemoryUtil.copyFromMemory(keys.getDataBufferAddress() + from, keyBytes, 0, length);
            return StringDataHash.of(keyBytes, 0, length) & 0xFFFFFFFFL;
        }

        @Override
        public boolean same(int a, int b) {
            boolean nullA = isNull(a);
            if (nullA || isNull(b)) {
                return nullA == isNull(b);
            }
            long data = keys.getDataBufferAddress();
            return HashMapOrder.sameBytes(data + offset(a), offset(a + 1) - offset(a),
                    data + offset(b), offset(b + 1) - offset(b));
        }

        private boolean isNull(int entry) {
            return !ArrowAppend.bit(keys.getValidityBufferAddress(), entry);
        }

        private int offset(int entry) {
            return MemoryUtil.getInt(keys.getOffsetBufferAddress() + (long) entry * VarCharVector.OFFSET_WIDTH);
        }
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
