package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.Test;

/** ARRAY, ROW, MAP and MULTISET writers against Flink's JSON serializer. */
class JsonNestedEncoderTest extends FlinkJsonOracle {
    private static final JsonFormatOptions IGNORE_NULLS = options(JsonFormatOptions.IGNORE_NULL_FIELDS, "true");

    @Test
    void arraysWithNullElementsAndNesting() throws Exception {
        assertSameAsFlink("ROW<a ARRAY<INT>, s ARRAY<STRING>, n ARRAY<ARRAY<BIGINT>>, r ARRAY<ROW<x INT, y STRING>>>", rows(
                new Object[] {array(1, null, 3), array(s("a"), null, s("\"q\"")),
                    array(array(1L, 2L), null, array(), array((Object) null)),
                    array(GenericRowData.of(1, s("one")), null, GenericRowData.of(null, null))},
                new Object[] {array(), array(), array(), array()},
                new Object[] {null, null, null, null},
                new Object[] {array(7), array(s("")), array(array(-1L)), array(GenericRowData.of(2, null))}));
    }

    @Test
    void nestedRowsWithAndWithoutIgnoreNullFields() throws Exception {
        String type = "ROW<id INT, r ROW<a INT, b STRING, c ROW<x INT, y INT>>, z STRING>";
        List<GenericRowData> rows = rows(
                new Object[] {1, GenericRowData.of(1, s("b"), GenericRowData.of(1, 2)), s("z")},
                new Object[] {null, GenericRowData.of(null, s("b"), GenericRowData.of(null, 2)), null},
                new Object[] {3, GenericRowData.of(null, null, GenericRowData.of(null, null)), s("z")},
                new Object[] {null, GenericRowData.of(null, null, null), null},
                new Object[] {null, null, null},
                new Object[] {4, GenericRowData.of(5, null, GenericRowData.of(6, null)), null});
        assertSameAsFlink(type, rows);
        assertSameAsFlink(type, IGNORE_NULLS, rows);
    }

    @Test
    void mapsAndMultisets() throws Exception {
        String type = "ROW<m MAP<STRING, INT>, n MAP<VARCHAR(5), ARRAY<STRING>>, ms MULTISET<STRING>,"
                + " mr MAP<STRING, ROW<a INT, b INT>>>";
        List<GenericRowData> rows = rows(
                new Object[] {map(s("a"), 1, s("b"), null, s("é\""), 3), map(s("k"), array(s("v"), null)),
                    map(s("x"), 2, s("y"), 1), map(s("r"), GenericRowData.of(1, null), s("s"), null)},
                new Object[] {map(), map(), map(), map()},
                new Object[] {null, null, null, null},
                new Object[] {map(s(""), 0), map(s("n"), null), map(s("😀"), 5), map(s("t"), GenericRowData.of(null, null))});
        assertSameAsFlink(type, rows);
        assertSameAsFlink(type, IGNORE_NULLS, rows);
    }

    @Test
    void nullMapKeysUnderDropAndLiteral() throws Exception {
        String type = "ROW<m MAP<STRING, INT>>";
        List<GenericRowData> rows = rows(
                new Object[] {map(null, 1, s("a"), 2)},
                new Object[] {map(s("a"), 2, null, 1)},
                new Object[] {map((Object) null, 3)},
                new Object[] {map(s("a"), 1)});
        assertSameAsFlink(type, options(JsonFormatOptions.MAP_NULL_KEY_MODE, "DROP"), rows);
        assertSameAsFlink(type, JsonFormatOptions.fromMap(java.util.Map.of(
                JsonFormatOptions.MAP_NULL_KEY_MODE, "LITERAL", JsonFormatOptions.MAP_NULL_KEY_LITERAL, "<null \"key\">")),
                rows);
    }

    @Test
    void duplicateKeysKeepFirstPositionAndLaterValue() throws Exception {
        JsonFormatOptions literal = JsonFormatOptions.fromMap(java.util.Map.of(
                JsonFormatOptions.MAP_NULL_KEY_MODE, "LITERAL", JsonFormatOptions.MAP_NULL_KEY_LITERAL, "a"));
        List<GenericRowData> rows = rows(
                new Object[] {map(s("a"), 1, s("b"), 2, s("a"), 3)},
                new Object[] {map(s("a"), 1, null, 2, s("c"), 3)}, // the literal meets a real key
                new Object[] {map(null, 1, s("a"), 2, null, 3)},
                new Object[] {map(s("x"), 1, s("x"), null)},
                new Object[] {bigMapWithDuplicates()});
        assertSameAsFlink("ROW<m MAP<STRING, INT>>", literal, rows);
        assertSameAsFlink("ROW<m MAP<STRING, INT>>", options(JsonFormatOptions.MAP_NULL_KEY_MODE, "DROP"), rows);
    }

    @Test
    void duplicateKeysWithMalformedUtf8KeysCompareAsFlinkDecodes() throws Exception {
        // 0xFF and 0xFE both decode to U+FFFD, so Flink sees one key twice.
        StringData ff = StringData.fromBytes(new byte[] {(byte) 0xff});
        StringData fe = StringData.fromBytes(new byte[] {(byte) 0xfe});
        StringData replacement = StringData.fromString("\ufffd");
        assertSameAsFlink("ROW<m MAP<STRING, INT>>", rows(new Object[] {map(ff, 1, s("b"), 2, fe, 3, replacement, 4)}));
    }

    @Test
    void duplicateKeysWithRowValuesMergeUnderIgnoreNullFields() throws Exception {
        String type = "ROW<m MAP<STRING, ROW<a INT, b INT, c ROW<x INT, y INT>>>>";
        List<GenericRowData> rows = rows(
                new Object[] {map(s("k"), GenericRowData.of(null, 1, GenericRowData.of(1, null)),
                    s("k"), GenericRowData.of(2, null, GenericRowData.of(null, 2)))},
                new Object[] {map(s("k"), GenericRowData.of(1, 1, null), s("k"), null, s("k"), GenericRowData.of(null, 3, null))},
                new Object[] {map(s("k"), GenericRowData.of(1, 1, null), s("j"), GenericRowData.of(9, 9, null),
                    s("k"), GenericRowData.of(null, null, GenericRowData.of(null, null)))});
        assertSameAsFlink(type, rows);
        assertSameAsFlink(type, IGNORE_NULLS, rows);
    }

    private static MapData bigMapWithDuplicates() {
        List<Object> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            entries.add(s("key" + (i % 13)));
            entries.add(i);
        }
        entries.add(null);
        entries.add(99);
        return map(entries.toArray());
    }

    static StringData s(String value) {
        return StringData.fromBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    static ArrayData array(Object... elements) {
        return new GenericArrayData(elements);
    }

    /** A map with entries in the given order, duplicates and null keys included (a Java Map cannot). */
    static MapData map(Object... keysAndValues) {
        Object[] keys = new Object[keysAndValues.length / 2];
        Object[] values = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = keysAndValues[2 * i];
            values[i] = keysAndValues[2 * i + 1];
        }
        return new MapData() {
            @Override
            public int size() {
                return keys.length;
            }

            @Override
            public ArrayData keyArray() {
                return new GenericArrayData(keys);
            }

            @Override
            public ArrayData valueArray() {
                return new GenericArrayData(values);
            }
        };
    }
}
