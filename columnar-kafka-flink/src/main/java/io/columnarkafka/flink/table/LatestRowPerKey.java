package io.columnarkafka.flink.table;

import java.util.Collection;
import java.util.HashMap;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The buffer of Flink's reducing upsert sink ({@code sink.buffer-flush.max-rows} / {@code
 * sink.buffer-flush.interval} on {@code upsert-kafka}): the latest row per key, handed out in the order
 * Flink's {@code ReducingUpsertWriter} writes them.
 *
 * <p>Flink keys a {@code java.util.HashMap} by a {@link GenericRowData} of the key columns (row kind
 * INSERT) and writes the rows in that map's iteration order. {@code GenericRowData.hashCode()} mixes in
 * {@code RowKind.INSERT}'s identity hash code, so Flink's order changes from one JVM to the next, and the
 * map is cleared after each flush, keeping the table it has grown to. Computing bucket order from the key
 * bytes (as {@code HashMapOrder} does for format maps) cannot know that identity hash; a HashMap of the
 * same key class, filled and cleared as Flink's, gives the same order in the same JVM by construction. So
 * this buffer builds one key object per buffered row, as Flink does; rows are only buffered when the
 * table asks for buffer-flush.
 *
 * <p>Each buffered row's kind becomes UPDATE_AFTER (insert, update-after) or DELETE (update-before,
 * delete), as in Flink, where a custom partitioner sees that kind.
 */
final class LatestRowPerKey {
    private final RowData.FieldGetter[] keyGetters;
    private final TypeSerializer<RowData> copier;
    private final HashMap<RowData, RowData> rows = new HashMap<>();

    /**
     * @param physicalType the table's declared physical columns (Flink's key getters are made from them)
     * @param keyFields indexes of the key columns in the physical row
     * @param copier copies each buffered row when the job reuses objects (as Flink's sink does), or null
     */
    LatestRowPerKey(RowType physicalType, int[] keyFields, TypeSerializer<RowData> copier) {
        this.keyGetters = new RowData.FieldGetter[keyFields.length];
        for (int i = 0; i < keyFields.length; i++) {
            keyGetters[i] = RowData.createFieldGetter(physicalType.getTypeAt(keyFields[i]), keyFields[i]);
        }
        this.copier = copier;
    }

    /** Makes {@code row} its key's latest row; returns the number of keys buffered. */
    int put(RowData row) {
        RowData value = copier == null ? row : copier.copy(row);
        RowKind kind = value.getRowKind();
        value.setRowKind(kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE ? RowKind.DELETE : RowKind.UPDATE_AFTER);
        // Read from the buffered row: with object reuse the input row's memory is overwritten later.
        GenericRowData key = new GenericRowData(RowKind.INSERT, keyGetters.length);
        for (int i = 0; i < keyGetters.length; i++) {
            key.setField(i, keyGetters[i].getFieldOrNull(value));
        }
        rows.put(key, value);
        return rows.size();
    }

    /** The buffered rows in Flink's write order; {@link #clear()} after writing them. */
    Collection<RowData> inWriteOrder() {
        return rows.values();
    }

    void clear() {
        rows.clear();
    }
}
