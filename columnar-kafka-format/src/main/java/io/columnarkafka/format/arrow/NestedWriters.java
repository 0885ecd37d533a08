package io.columnarkafka.format.arrow;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/** Writers of ARRAY (List), ROW (Struct) and MAP / MULTISET (Map) columns; each delegates to child writers. */
final class NestedWriters {
    private NestedWriters() {}

    /** ARRAY: one list slot whose elements are appended to the child vector from the slot's start offset. */
    static final class ArrayWriter extends FieldWriter<ListVector> {
        private final FieldWriter<?> element;

        ArrayWriter(String path, ListVector vector, FieldWriter<?> element) {
            super(path, vector);
            this.element = element;
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            set(index, row.getArray(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            set(index, array.getArray(pos));
        }

        private void set(int index, ArrayData elements) {
            int start = vector.startNewValue(index);
            int size = elements.size();
            for (int i = 0; i < size; i++) {
                element.write(elements, i, start + i);
            }
            vector.endValue(index, size);
        }
    }

    /** ROW: marks the struct slot present and writes every field into the same slot of its child. */
    static final class RowWriter extends FieldWriter<StructVector> {
        private final FieldWriter<?>[] fields;

        private RowWriter(String path, StructVector vector, FieldWriter<?>[] fields) {
            super(path, vector);
            this.fields = fields;
        }

        static RowWriter of(String path, RowType type, StructVector vector) {
            FieldWriter<?>[] fields = new FieldWriter<?>[type.getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = FieldWriter.of(
                        path + "." + type.getFieldNames().get(i), type.getTypeAt(i), (FieldVector) vector.getChildByOrdinal(i));
            }
            return new RowWriter(path, vector, fields);
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            set(index, row.getRow(pos, fields.length));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            set(index, array.getRow(pos, fields.length));
        }

        private void set(int index, RowData row) {
            vector.setIndexDefined(index);
            for (int i = 0; i < fields.length; i++) {
                fields[i].write(row, i, index);
            }
        }
    }

    /**
     * MAP and MULTISET (a map to INT counts): entries in the map's own order, keys and values from its key
     * and value arrays. A null key, which Flink allows and the JSON format's {@code map-null-key.mode}
     * handles, is carried as an unset validity bit in the key vector although {@link ArrowLayout} declares
     * the key field non-nullable (Arrow requires that, and Arrow Java enforces it when creating the vector).
     * Such a batch is for this project's encoders, which apply Flink's null-key handling; it is not a
     * conforming Arrow batch to hand to other Arrow implementations.
     */
    static final class MapWriter extends FieldWriter<MapVector> {
        private final StructVector entries;
        private final FieldWriter<?> key;
        private final FieldWriter<?> value;

        private MapWriter(String path, MapVector vector, StructVector entries, FieldWriter<?> key,
                FieldWriter<?> value) {
            super(path, vector);
            this.entries = entries;
            this.key = key;
            this.value = value;
        }

        static MapWriter of(String path, LogicalType keyType, LogicalType valueType, MapVector vector) {
            StructVector entries = (StructVector) vector.getDataVector();
            return new MapWriter(path, vector, entries,
                    FieldWriter.of(path + ".key", keyType, (FieldVector) entries.getChildByOrdinal(0)),
                    FieldWriter.of(path + ".value", valueType, (FieldVector) entries.getChildByOrdinal(1)));
        }

        @Override
        void writeValue(RowData row, int pos, int index) {
            set(index, row.getMap(pos));
        }

        @Override
        void writeValue(ArrayData array, int pos, int index) {
            set(index, array.getMap(pos));
        }

        private void set(int index, MapData map) {
            int start = vector.startNewValue(index);
            int size = map.size();
            ArrayData keys = map.keyArray();
            ArrayData values = map.valueArray();
            for (int i = 0; i < size; i++) {
                entries.setIndexDefined(start + i);
                key.write(keys, i, start + i);
                value.write(values, i, start + i);
            }
            vector.endValue(index, size);
        }
    }
}
