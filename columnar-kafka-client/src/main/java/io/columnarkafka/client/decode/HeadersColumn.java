package io.columnarkafka.client.decode;

import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.StringDataHash;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.StringData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Fills a {@code headers} column ({@code MAP<STRING, BYTES>}) with each record's headers as Flink's Kafka
 * source shows them: its metadata converter puts every header into {@code new HashMap<StringData, byte[]>()}
 * in record order, so a repeated key keeps its first position and takes its last value, a null value stays
 * null, and the entries come in that HashMap's iteration order, computed here without a map ({@link
 * HashMapOrder#growing} over {@link StringDataHash}). Headers whose order that computation gives up on
 * (more than 8 keys in one of the 16 first buckets) go through the HashMap Flink builds. One per batch.
 */
final class HeadersColumn {
    private final HashMapOrder order = new HashMapOrder();
    private final HashMapOrder.Keys hashedKeys = new HashMapOrder.Keys() {
        @Override
        public long hash(int entry) {
            return StringDataHash.of(keys[entry], 0, keys[entry].length) & 0xFFFFFFFFL;
        }

        @Override
        public boolean same(int a, int b) {
            return Arrays.equals(keys[a], keys[b]);
        }
    };
    /** The UTF-8 bytes of the current record's header keys, and their values, in record order. */
    private byte[][] keys = new byte[8][];
    private byte[][] values = new byte[8][];
    private MapVector vector;
    private StructVector entries;
    private VarCharVector keyVector;
    private VarBinaryVector valueVector;

    void fill(MapVector vector, ConsumerRecord<?, ?>[] records, int rows) {
        this.vector = vector;
        entries = (StructVector) vector.getDataVector();
        keyVector = (VarCharVector) entries.getChildByOrdinal(0);
        valueVector = (VarBinaryVector) entries.getChildByOrdinal(1);
        for (int row = 0; row < rows; row++) {
            fillRow(row, records[row]);
        }
    }

    private void fillRow(int row, ConsumerRecord<?, ?> record) {
        int n = 0;
        for (Header header : record.headers()) {
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
                values = Arrays.copyOf(values, n * 2);
            }
            keys[n] = header.key().getBytes(StandardCharsets.UTF_8);
            values[n] = header.value();
            n++;
        }
        int start = vector.startNewValue(row);
        int size;
        if (order.growing(hashedKeys, 0, n)) {
            size = order.size;
            for (int k = 0; k < size; k++) {
                put(start + k, order.keyEntry[k], order.valueEntry[k]);
            }
        } else {
            size = putThroughHashMap(start, n);
        }
        vector.endValue(row, size);
        Arrays.fill(keys, 0, n, null);
        Arrays.fill(values, 0, n, null);
    }

    /** The reference path: Flink's own construction. Equal keys have equal bytes, so a value's entry gives its key. */
    private int putThroughHashMap(int start, int n) {
        Map<StringData, Integer> map = new HashMap<>();
        for (int e = 0; e < n; e++) {
            map.put(StringData.fromBytes(keys[e]), e);
        }
        int k = 0;
        for (int entry : map.values()) {
            put(start + k++, entry, entry);
        }
        return k;
    }

    private void put(int slot, int keyEntry, int valueEntry) {
        keyVector.setSafe(slot, keys[keyEntry]);
        if (values[valueEntry] == null) {
            valueVector.setNull(slot);
        } else {
            valueVector.setSafe(slot, values[valueEntry]);
        }
        entries.setIndexDefined(slot);
    }
}
