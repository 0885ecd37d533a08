package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.json.JsonFormatOptions.MapNullKeyMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * MAP and MULTISET (Arrow Map of string keys) as a JSON object in entry order, the way Flink fills a
 * Jackson {@code ObjectNode}: a null key is handled by {@code map-null-key.mode}; a key seen again
 * (possible in Arrow, e.g. the null-key literal meeting a real key) keeps its first position and takes
 * the later value.
 *
 * <p>Duplicates are looked for in every map with two or more entries: pairwise for small maps, with a
 * reused open-addressing table for larger ones. Only maps that have duplicates take the slower path.
 */
final class MapJsonWriter extends JsonValueWriter {
    private static final int PAIRWISE_LIMIT = 8;
    private static final int DROPPED = -1;

    private final Offsets offsets = new Offsets();
    private final Utf8JsonWriter keys;
    private final JsonValueWriter values;
    private final MapNullKeyMode nullKeyMode;
    private final String literal;
    private final byte[] quotedLiteral;
    /** The literal as UTF-8, or null if it has a lone surrogate and so equals no decoded key. */
    private final byte[] literalUtf8;
    /**
     * With ignore-null-fields Jackson merges a ROW value into the node of an earlier equal key instead
     * of replacing it (Flink passes that node as the value converter's reuse).
     */
    private final boolean mergeRows;

    private int[] firstOf = new int[16];
    private int[] table = new int[64];

    MapJsonWriter(String path, Utf8JsonWriter keys, JsonValueWriter values, JsonFormatOptions options) {
        super(path);
        this.keys = keys;
        this.values = values;
        this.nullKeyMode = options.mapNullKeyMode();
        this.literal = options.mapNullKeyLiteral();
        this.quotedLiteral = JsonStrings.quoted(literal);
        this.literalUtf8 = isWellFormed(literal) ? literal.getBytes(StandardCharsets.UTF_8) : null;
        this.mergeRows = options.ignoreNullFields() && values instanceof StructJsonWriter;
    }

    private static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        bindMap(vector, count, offsets, keys, values);
    }

    @Override
    void write(ByteOutput out, int index) {
        int start = (int) offsets.get(index);
        int end = (int) offsets.get(index + 1);
        if (end - start >= 2 && findDuplicates(out, start, end)) {
            writeWithDuplicates(out, start, end);
            return;
        }
        out.writeByte((byte) '{');
        boolean first = true;
        for (int j = start; j < end; j++) {
            if (keys.isNull(j) && nullKey(out) == DROPPED) {
                continue;
            }
            if (!first) {
                out.writeByte((byte) ',');
            }
            first = false;
            writeKey(out, j);
            values.writeNullable(out, j);
        }
        out.writeByte((byte) '}');
    }

    /** Applies the null-key mode: throws under FAIL, returns {@link #DROPPED} under DROP, else 0. */
    private int nullKey(ByteOutput out) {
        switch (nullKeyMode) {
            case FAIL:
                throw new EncodeException(path, out.row(),
                        "map has a null key; JSON format doesn't support to serialize map data with null"
                                + " keys (set 'map-null-key.mode' to DROP or LITERAL)");
            case DROP:
                return DROPPED;
            default:
                return 0;
        }
    }

    /** Writes the key of entry {@code j} and the colon. */
    private void writeKey(ByteOutput out, int j) {
        if (keys.isNull(j)) {
            out.writeBytes(quotedLiteral);
        } else {
            keys.write(out, j);
        }
        out.writeByte((byte) ':');
    }

    /**
     * Fills {@code firstOf[k]} for entry {@code start + k} with the entry offset of the first equal key
     * ({@code k} itself when new, {@link #DROPPED} for a dropped null key); true if any key repeats.
     */
    private boolean findDuplicates(ByteOutput out, int start, int end) {
        int n = end - start;
        if (firstOf.length < n) {
            firstOf = new int[Math.max(n, firstOf.length * 2)];
        }
        boolean repeated = false;
        if (n <= PAIRWISE_LIMIT) {
            for (int k = 0; k < n; k++) {
                firstOf[k] = k;
                if (keys.isNull(start + k) && nullKey(out) == DROPPED) {
                    firstOf[k] = DROPPED;
                    continue;
                }
                for (int e = 0; e < k; e++) {
                    if (firstOf[e] == e && keyEquals(start + e, start + k)) {
                        firstOf[k] = e;
                        repeated = true;
                        break;
                    }
                }
            }
            return repeated;
        }
        int size = Integer.highestOneBit(n * 2 - 1) << 1;
        if (table.length < size) {
            table = new int[size];
        } else {
            Arrays.fill(table, 0, size, 0);
        }
        int mask = size - 1;
        for (int k = 0; k < n; k++) {
            firstOf[k] = k;
            if (keys.isNull(start + k) && nullKey(out) == DROPPED) {
                firstOf[k] = DROPPED;
                continue;
            }
            int slot = keyHash(start + k) & mask;
            while (table[slot] != 0) {
                int e = table[slot] - 1;
                if (keyEquals(start + e, start + k)) {
                    firstOf[k] = e;
                    repeated = true;
                    break;
                }
                slot = (slot + 1) & mask;
            }
            if (firstOf[k] == k) {
                table[slot] = k + 1;
            }
        }
        return repeated;
    }

    private void writeWithDuplicates(ByteOutput out, int start, int end) {
        int n = end - start;
        int[] lastOf = new int[n];
        int[] sameKeyCount = new int[n];
        for (int k = 0; k < n; k++) {
            int first = firstOf[k];
            if (first != DROPPED) {
                lastOf[first] = k;
                sameKeyCount[first]++;
            }
        }
        out.writeByte((byte) '{');
        boolean firstEntry = true;
        for (int k = 0; k < n; k++) {
            if (firstOf[k] != k) {
                continue;
            }
            if (!firstEntry) {
                out.writeByte((byte) ',');
            }
            firstEntry = false;
            writeKey(out, start + k);
            if (mergeRows) {
                int[] sameKey = new int[sameKeyCount[k]];
                int m = 0;
                for (int e = k; e < n; e++) {
                    if (firstOf[e] == k) {
                        sameKey[m++] = start + e;
                    }
                }
                RowMerge.write(out, values, sameKey, m);
            } else {
                values.writeNullable(out, start + lastOf[k]);
            }
        }
        out.writeByte((byte) '}');
    }

    private boolean keyEquals(int a, int b) {
        if (keys.mayHaveMalformed()) {
            return keyString(a).equals(keyString(b));
        }
        boolean aNull = keys.isNull(a);
        boolean bNull = keys.isNull(b);
        if (aNull || bNull) {
            if (aNull && bNull) {
                return true;
            }
            return literalUtf8 != null && equalsLiteral(aNull ? b : a);
        }
        int length = keys.length(a);
        if (keys.length(b) != length) {
            return false;
        }
        long x = keys.start(a);
        long y = keys.start(b);
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if (MemoryUtil.getLong(x + i) != MemoryUtil.getLong(y + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (MemoryUtil.getByte(x + i) != MemoryUtil.getByte(y + i)) {
                return false;
            }
        }
        return true;
    }

    private boolean equalsLiteral(int j) {
        int length = keys.length(j);
        if (length != literalUtf8.length) {
            return false;
        }
        long address = keys.start(j);
        for (int i = 0; i < length; i++) {
            if (MemoryUtil.getByte(address + i) != literalUtf8[i]) {
                return false;
            }
        }
        return true;
    }

    private int keyHash(int j) {
        if (keys.mayHaveMalformed()) {
            return mix(keyString(j).hashCode());
        }
        if (keys.isNull(j)) {
            return literalUtf8 == null ? 0 : mix(Arrays.hashCode(literalUtf8));
        }
        int h = 1;
        long address = keys.start(j);
        int length = keys.length(j);
        for (int i = 0; i < length; i++) {
            h = 31 * h + MemoryUtil.getByte(address + i);
        }
        return mix(h);
    }

    private static int mix(int h) {
        return h ^ (h >>> 16);
    }

    private String keyString(int j) {
        return keys.isNull(j) ? literal : keys.decode(j);
    }
}
