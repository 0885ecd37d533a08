package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.arrow.Offsets;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * MAP and MULTISET (Arrow Map of string keys) as an Avro map: one block of the distinct keys, each key
 * as an Avro string followed by its value, then the zero-count end block, in Flink's
 * {@code java.util.HashMap} order ({@link HashMapOrder}). A null key fails, as it does in Flink (its
 * converter calls {@code toString()} on the key). Maps the order computation gives up on go through a real
 * HashMap built the way Flink builds it.
 */
final class MapAvroWriter extends AvroValueWriter {
    private final Offsets offsets = new Offsets();
    private final StringAvroWriter keys;
    private final AvroValueWriter values;
    private final HashMapOrder order = new HashMapOrder();

    MapAvroWriter(String path, boolean nullable, StringAvroWriter keys, AvroValueWriter values) {
        super(path, nullable);
        this.keys = keys;
        this.values = values;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        bindMap(vector, count, offsets, keys, values);
    }

    @Override
    void write(ByteOutput out, int index) {
        int start = (int) offsets.get(index);
        int end = (int) offsets.get(index + 1);
        for (int j = start; j < end; j++) {
            if (keys.isNull(j)) {
                throw new EncodeException(path, out.row(), "map has a null key; Avro map keys are strings");
            }
        }
        if (end > start) {
            if (order.presized(keys, start, end)) {
                AvroBinary.writeLong(out, order.size);
                for (int k = 0; k < order.size; k++) {
                    int key = order.keyEntry[k];
                    AvroBinary.writeBytes(out, keys.start(key), keys.length(key));
                    values.writeField(out, order.valueEntry[k]);
                }
            } else {
                writeThroughHashMap(out, start, end);
            }
        }
        out.writeByte((byte) 0);
    }

    /** The reference path: Flink's own construction, for malformed keys and crowded buckets. */
    private void writeThroughHashMap(ByteOutput out, int start, int end) {
        int n = end - start;
        Map<String, Integer> map = new HashMap<>(HashMapOrder.requiredCapacity(n), 0.75f);
        for (int j = start; j < end; j++) {
            byte[] key = new byte[keys.length(j)];
            MemoryUtil.copyFromMemory(keys.start(j), key, 0, key.length);
            map.put(new String(key, StandardCharsets.UTF_8), j);
        }
        AvroBinary.writeLong(out, map.size());
        for (Map.Entry<String, Integer> entry : map.entrySet()) {
            AvroBinary.writeBytes(out, entry.getKey().getBytes(StandardCharsets.UTF_8));
            values.writeField(out, entry.getValue());
        }
    }
}
