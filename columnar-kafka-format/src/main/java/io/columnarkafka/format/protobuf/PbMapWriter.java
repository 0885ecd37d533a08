package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.arrow.Offsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.ValueVector;

/**
 * MAP (Arrow Map) as a protobuf map field: one length-delimited entry message per distinct key, each with
 * the key as field 1 and the value as field 2, both always written (a null becomes the default). Flink's
 * generated code puts the entries into a {@code new HashMap()} and the builder keeps that iteration order,
 * so entries follow {@link HashMapOrder#growing}; where that gives up, a real HashMap of the Java keys is
 * built as Flink builds it.
 */
final class PbMapWriter extends PbCollectionWriter {
    private final Offsets offsets = new Offsets();
    private final PbWriter keys;
    private final PbWriter values;
    private final HashMapOrder order = new HashMapOrder();

    PbMapWriter(String path, PbField field, PbWriter keys, PbWriter values) {
        super(path, field);
        this.keys = keys;
        this.values = values;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        bindMap(vector, count, offsets, keys, values);
    }

    @Override
    void writeField(ByteOutput out, int index) {
        if (isNull(index)) {
            return;
        }
        int start = (int) offsets.get(index);
        int end = (int) offsets.get(index + 1);
        if (end == start) {
            return;
        }
        if (order.growing((PbMapKey) keys, start, end)) {
            for (int k = 0; k < order.size; k++) {
                writeEntry(out, order.keyEntry[k], order.valueEntry[k]);
            }
        } else {
            writeThroughHashMap(out, start, end);
        }
    }

    /** The reference path: Flink's own construction, for malformed keys and crowded buckets. */
    private void writeThroughHashMap(ByteOutput out, int start, int end) {
        Map<Object, Integer> map = new HashMap<>();
        for (int j = start; j < end; j++) {
            map.put(((PbMapKey) keys).javaKey(j), j);
        }
        for (int entry : map.values()) {
            writeEntry(out, entry, entry);
        }
    }

    private void writeEntry(ByteOutput out, int keyEntry, int valueEntry) {
        writeTag(out);
        int lengthAt = PbWire.beginLength(out);
        keys.writeTagged(out, keyEntry);
        values.writeTagged(out, valueEntry);
        PbWire.endLength(out, lengthAt);
    }
}
