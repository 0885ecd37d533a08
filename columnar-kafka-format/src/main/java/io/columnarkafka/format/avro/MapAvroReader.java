package io.columnarkafka.format.avro;

import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.StringDataHash;
import io.columnarkafka.format.Utf8Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.avro.util.Utf8;
import org.apache.flink.table.data.StringData;

/**
 * MAP and MULTISET (an Avro map of string keys) with Flink's entry order. Flink's map is built twice per
 * record: Avro's {@code GenericDatumReader} puts the entries into {@code new HashMap(n)} ({@code n} the
 * first block's count) keyed by {@code Utf8} (hash {@code 31 * h + signed byte}), then Flink's converter
 * iterates that map into {@code new HashMap()} keyed by {@code StringData} ({@link StringDataHash}); the row
 * shows the second map's iteration order, the last value of a repeated key. Both orders are computed with
 * {@link HashMapOrder}, without building keys: the entries are first skipped (Avro's checks applied to
 * every value, as Avro reads them all), then the surviving ones read from their positions in that order.
 * Maps that computation gives up on (malformed UTF-8 keys, crowded buckets) go through the two HashMaps
 * built as Avro and Flink build them.
 */
final class MapAvroReader extends AvroReaders.Typed<MapVector> {
    private final AvroFieldReader values;
    private final HashMapOrder avroOrder = new HashMapOrder();
    private final HashMapOrder flinkOrder = new HashMapOrder();
    private final AvroKeys avroKeys = new AvroKeys();
    private final FlinkKeys flinkKeys = new FlinkKeys();
    private StructVector entries;
    private BaseVariableWidthVector keys;
    private byte[] buf;
    private int[] keyStart = new int[16];
    private int[] keyLength = new int[16];
    private int[] valueStart = new int[16];
    /** The entries (indexes into the arrays above) in Flink's order, and how many. */
    private int[] order = new int[16];
    private int size;

    MapAvroReader(String path, boolean nullable, AvroFieldReader values) {
        super(path, nullable);
        this.values = values;
    }

    @Override
    void bind(FieldVector vector) {
        super.bind(vector);
        entries = (StructVector) this.vector.getDataVector();
        keys = (BaseVariableWidthVector) entries.getChildByOrdinal(0);
        values.bind((FieldVector) entries.getChildByOrdinal(1));
    }

    @Override
    void readValue(AvroInput in, int index) {
        int firstBlock = 0;
        int n = 0;
        for (long block = in.readBlockCount(); block > 0; block = in.readBlockCount()) {
            firstBlock = firstBlock == 0 ? (int) block : firstBlock;
            for (long k = 0; k < block; k++) {
                ensureCapacity(n + 1);
                int length = in.readLength();
                keyStart[n] = in.pos;
                keyLength[n] = length;
                in.pos += length;
                valueStart[n] = in.pos;
                values.skip(in);
                n++;
            }
        }
        int end = in.pos;
        buf = in.buf;
        size = 0;
        if (n > 0 && !computeOrder(n, firstBlock)) {
            orderThroughHashMaps(n, firstBlock);
        }
        int offset = vector.startNewValue(index);
        for (int k = 0; k < size; k++) {
            int entry = order[k];
            writeKey(offset + k, entry);
            in.pos = valueStart[entry];
            values.read(in, offset + k);
            entries.setIndexDefined(offset + k);
        }
        in.pos = end;
        vector.endValue(index, size);
    }

    @Override
    void skipValue(AvroInput in) {
        for (long block = in.readBlockCount(); block > 0; block = in.readBlockCount()) {
            for (long k = 0; k < block; k++) {
                in.skipLength();
                values.skip(in);
            }
        }
    }

    /** Avro's map order, then Flink's over it; false if either needs a real HashMap. */
    private boolean computeOrder(int n, int firstBlock) {
        if (!avroOrder.withInitialCapacity(avroKeys, 0, n, firstBlock)
                || !flinkOrder.growing(flinkKeys, 0, avroOrder.size)) {
            return false;
        }
        size = flinkOrder.size;
        for (int k = 0; k < size; k++) {
            order[k] = avroOrder.valueEntry[flinkOrder.valueEntry[k]];
        }
        return true;
    }

    /**
     * The reference path: both maps built as Avro and Flink build them. A key equal in Flink to an earlier
     * one (two malformed keys decoding to one string) keeps the earlier's position and the later's value;
     * both write the same bytes, so the value's entry gives the key.
     */
    private void orderThroughHashMaps(int n, int firstBlock) {
        Map<Utf8, Integer> avro = new HashMap<>(firstBlock);
        for (int e = 0; e < n; e++) {
            avro.put(new Utf8(Arrays.copyOfRange(buf, keyStart[e], keyStart[e] + keyLength[e])), e);
        }
        Map<StringData, Integer> flink = new HashMap<>();
        for (Map.Entry<Utf8, Integer> entry : avro.entrySet()) {
            flink.put(StringData.fromString(entry.getKey().toString()), entry.getValue());
        }
        size = 0;
        for (int entry : flink.values()) {
            order[size++] = entry;
        }
    }

    /** The key as Flink's {@code Utf8.toString()} leaves it: its bytes, or malformed UTF-8 replaced. */
    private void writeKey(int slot, int entry) {
        int start = keyStart[entry];
        int length = keyLength[entry];
        if (Utf8Bytes.isWellFormed(buf, start, start + length)) {
            keys.setSafe(slot, buf, start, length);
        } else {
            byte[] replaced = new String(buf, start, length, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
            keys.setSafe(slot, replaced, 0, replaced.length);
        }
    }

    private void ensureCapacity(int n) {
        if (keyStart.length < n) {
            int capacity = keyStart.length * 2;
            keyStart = Arrays.copyOf(keyStart, capacity);
            keyLength = Arrays.copyOf(keyLength, capacity);
            valueStart = Arrays.copyOf(valueStart, capacity);
            order = Arrays.copyOf(order, capacity);
        }
    }

    private boolean sameBytes(int a, int b) {
        return Arrays.equals(buf, keyStart[a], keyStart[a] + keyLength[a], buf, keyStart[b], keyStart[b] + keyLength[b]);
    }

    /** The record's entries as Avro's {@code Utf8} keys: any bytes, hashed as signed bytes. */
    private final class AvroKeys implements HashMapOrder.Keys {
        @Override
        public long hash(int entry) {
            int h = 0;
            for (int i = keyStart[entry], end = i + keyLength[entry]; i < end; i++) {
                h = 31 * h + buf[i];
            }
            return h & 0xFFFFFFFFL;
        }

        @Override
        public boolean same(int a, int b) {
            return sameBytes(a, b);
        }
    }

    /** Avro's distinct entries in its order, as Flink's {@code StringData} keys; malformed UTF-8 gives up. */
    private final class FlinkKeys implements HashMapOrder.Keys {
        @Override
        public long hash(int position) {
            int entry = avroOrder.valueEntry[position];
            int start = keyStart[entry];
            if (!Utf8Bytes.isWellFormed(buf, start, start + keyLength[entry])) {
                return -1;
            }
            return StringDataHash.of(buf, start, keyLength[entry]) & 0xFFFFFFFFL;
        }

        @Override
        public boolean same(int a, int b) {
            return sameBytes(avroOrder.valueEntry[a], avroOrder.valueEntry[b]);
        }
    }
}
