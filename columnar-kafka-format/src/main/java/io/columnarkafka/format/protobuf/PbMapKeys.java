package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.Arrays;

/**
 * The distinct keys of one map field's entries, in first-seen order, each with its last entry: protobuf-java's
 * {@code put} of every entry into its map. Keys compare as the values protobuf-java reads (an int32 key by
 * its low 32 bits, a bool by non-zero, a string by its bytes, which protobuf has checked are UTF-8); a missing
 * key is the default (0, false, empty). An open-addressing table of the distinct keys, reused per map.
 */
final class PbMapKeys {
    private static final int VARINT32 = 0;
    private static final int VARINT64 = 1;
    private static final int BOOL = 2;
    private static final int FIXED32 = 3;
    private static final int FIXED64 = 4;
    private static final int STRING = 5;

    private final int keyTag;
    private final int kind;
    private long[] values = new long[16];
    private int[] starts = new int[16];
    private int[] lengths = new int[16];
    private int[] lastEntries = new int[16];
    private int[] table = new int[32];
    private byte[] buf;

    PbMapKeys(FieldDescriptor key) {
        this.keyTag = key.getNumber() << 3 | PbField.wireType(key.getType());
        switch (key.getType()) {
            case INT32:
            case UINT32:
            case SINT32:
                kind = VARINT32;
                break;
            case BOOL:
                kind = BOOL;
                break;
            case FIXED32:
            case SFIXED32:
                kind = FIXED32;
                break;
            case FIXED64:
            case SFIXED64:
                kind = FIXED64;
                break;
            case STRING:
                kind = STRING;
                break;
            default:
                kind = VARINT64;
        }
    }

    /** Finds the distinct keys of the entries {@code [from, entries.count)}; returns how many. */
    int distinct(PbInput in, PbOccurrences entries, int from) {
        int n = entries.count - from;
        if (n > values.length) {
            int capacity = Integer.highestOneBit(n) * 2;
            values = new long[capacity];
            starts = new int[capacity];
            lengths = new int[capacity];
            lastEntries = new int[capacity];
        }
        int tableSize = Math.max(32, Integer.highestOneBit(Math.max(n, 1)) * 4);
        if (table.length < tableSize) {
            table = new int[tableSize];
        } else {
            Arrays.fill(table, 0);
        }
        buf = in.buf;
        int distinct = 0;
        int mask = table.length - 1;
        int limit = in.limit;
        for (int k = from; k < entries.count; k++) {
            readKey(in, entries.starts[k], entries.ends[k], distinct);
            int slot = hash(distinct) & mask;
            while (true) {
                int d = table[slot] - 1;
                if (d < 0) {
                    table[slot] = distinct + 1;
                    lastEntries[distinct++] = k;
                    break;
                }
                if (same(d, distinct)) {
                    lastEntries[d] = k;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        in.limit = limit;
        return distinct;
    }

    /** The entry (index into the occurrences) whose value distinct key {@code d} takes. */
    int lastEntry(int d) {
        return lastEntries[d];
    }

    /** Reads the key of the entry {@code [start, end)} into candidate slot {@code d}. */
    private void readKey(PbInput in, int start, int end, int d) {
        in.pos = start;
        in.limit = end;
        int keyAt = -1;
        int keyEnd = 0;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (tag == keyTag) {
                if (kind == STRING) {
                    keyEnd = in.readLength() + in.pos;
                    keyAt = in.pos;
                    in.pos = keyEnd;
                    continue;
                }
                keyAt = in.pos;
            }
            in.skipField(tag, 0);
        }
        values[d] = 0;
        starts[d] = 0;
        lengths[d] = 0;
        if (keyAt < 0) {
            return;
        }
        in.pos = keyAt;
        switch (kind) {
            case STRING:
                starts[d] = keyAt;
                lengths[d] = keyEnd - keyAt;
                return;
            case VARINT32:
                values[d] = in.readVarint32();
                return;
            case BOOL:
                values[d] = in.readVarint64() != 0 ? 1 : 0;
                return;
            case FIXED32:
                values[d] = in.readFixed32();
                return;
            case FIXED64:
                values[d] = in.readFixed64();
                return;
            default:
                values[d] = in.readVarint64();
        }
    }

    private int hash(int d) {
        long h = values[d];
        for (int i = starts[d], end = starts[d] + lengths[d]; i < end; i++) {
            h = h * 31 + buf[i];
        }
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private boolean same(int a, int b) {
        return values[a] == values[b] && Arrays.equals(buf, starts[a], starts[a] + lengths[a], buf, starts[b],
                starts[b] + lengths[b]);
    }
}
