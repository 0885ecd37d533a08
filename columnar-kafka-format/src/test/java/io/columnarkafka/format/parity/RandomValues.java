package io.columnarkafka.format.parity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Seeded random Flink internal values of any type, drawn from {@link EdgeValues}, with nulls at every
 * nullable level and, if allowed, null map keys. Deterministic for a seed, so corpus failures replay.
 */
public final class RandomValues {
    private final Random random;
    private final boolean nullMapKeys;
    private final boolean fullRange;

    public RandomValues(long seed, boolean nullMapKeys) {
        this(seed, nullMapKeys, false);
    }

    /** With {@code fullRange}, nanosecond timestamps over Flink's whole range ({@link EdgeValues#of(LogicalType, boolean)}). */
    public RandomValues(long seed, boolean nullMapKeys, boolean fullRange) {
        this.random = new Random(seed);
        this.nullMapKeys = nullMapKeys;
        this.fullRange = fullRange;
    }

    public GenericRowData row(RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, value(type.getTypeAt(i)));
        }
        return row;
    }

    /** {@code count} random rows of {@code type}. */
    public java.util.List<org.apache.flink.table.data.RowData> rows(RowType type, int count) {
        java.util.List<org.apache.flink.table.data.RowData> rows = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(row(type));
        }
        return rows;
    }

    public Object value(LogicalType type) {
        if (type.isNullable() && random.nextInt(5) == 0) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case ARRAY: {
                Object[] elements = new Object[random.nextInt(4)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(((ArrayType) type).getElementType());
                }
                return new GenericArrayData(elements);
            }
            case ROW:
                return row((RowType) type);
            case MAP: {
                MapType map = (MapType) type;
                return map(map.getKeyType(), map.getValueType());
            }
            case MULTISET:
                return map(((MultisetType) type).getElementType(), new org.apache.flink.table.types.logical.IntType(false));
            default:
                List<Object> values = EdgeValues.of(type, fullRange);
                return values.get(random.nextInt(values.size()));
        }
    }

    private GenericMapData map(LogicalType keyType, LogicalType valueType) {
        Map<Object, Object> map = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            Object key = nullMapKeys && keyType.isNullable() && random.nextInt(4) == 0
                    ? null : StringData.fromString(EdgeValues.STRINGS.get(random.nextInt(EdgeValues.STRINGS.size())));
            map.put(key, value(valueType));
        }
        return new GenericMapData(map);
    }
}
