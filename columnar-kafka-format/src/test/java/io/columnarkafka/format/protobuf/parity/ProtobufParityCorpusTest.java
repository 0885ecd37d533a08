package io.columnarkafka.format.protobuf.parity;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.EdgeValues;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.protobuf.testmsg.Choice3;
import io.columnarkafka.format.protobuf.testmsg.Maps3;
import io.columnarkafka.format.protobuf.testmsg.Outer3;
import io.columnarkafka.format.protobuf.testmsg.Repeated3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import io.columnarkafka.format.protobuf.testmsg2.Proto2Messages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.formats.protobuf.util.PbToRowTypeUtil;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** Protobuf records byte-identical to Flink's {@code PbRowDataSerializationSchema}, per type and edge case. */
class ProtobufParityCorpusTest {
    static final ParityCheck PARITY = FlinkProtobufOracle.check();

    static Map<String, String> options(Class<?> message, String nullLiteral) {
        return nullLiteral == null ? Map.of("message-class-name", message.getName())
                : Map.of("message-class-name", message.getName(), "write-null-string-literal", nullLiteral);
    }

    /**
     * Every field of the message: 200 seeded random rows of edge values (nulls at every level) and an
     * all-null row, under the default and a non-empty {@code write-null-string-literal}.
     */
    private static void cycleEdges(Class<?> message, Descriptor descriptor, boolean enumsByNumber) {
        RowType type = PbRows.allFields(descriptor, enumsByNumber);
        List<RowData> rows = new ArrayList<>();
        PbRows random = new PbRows(descriptor.getFullName().hashCode());
        for (int i = 0; i < 200; i++) {
            rows.add(random.row(descriptor, type));
        }
        rows.add(new GenericRowData(type.getFieldCount()));
        assertThat(PARITY.assertParity(type, rows, options(message, null))).isTrue();
        assertThat(PARITY.assertParity(type, rows, options(message, "NULL"))).isTrue();
    }

    @Test
    void derivedRowTypeIsFlinks() {
        assertThat(PbRows.allFields(Scalars3.getDescriptor(), false))
                .isEqualTo(PbToRowTypeUtil.generateRowType(Scalars3.getDescriptor()));
        assertThat(PbRows.allFields(Maps3.getDescriptor(), false))
                .isEqualTo(PbToRowTypeUtil.generateRowType(Maps3.getDescriptor()));
    }

    @Test
    void proto3ScalarEdgeValuesEveryIntegerEncoding() {
        // every scalar column cycling through its edge values (0 / "" / false: proto3 skips these defaults)
        RowType scalars = RowTypes.parse("ROW<d DOUBLE, f FLOAT, i32 INT, i64 BIGINT, u32 INT, u64 BIGINT, s32 INT,"
                + " s64 BIGINT, fx32 INT, fx64 BIGINT, sf32 INT, sf64 BIGINT, b BOOLEAN, s STRING, by BYTES,"
                + " oi INT, os STRING, far BIGINT>");
        assertThat(PARITY.assertParity(scalars, EdgeValues.cyclingRows(scalars), options(Scalars3.class, null)))
                .isTrue();
        cycleEdges(Scalars3.class, Scalars3.getDescriptor(), false);
    }

    @Test
    void messagesOfNumbersAndStringsOnlyEveryIntegerEncodingOutOfFieldOrder() {
        // only numbers and strings: the encoder's one-room-per-batch path when every string is ASCII,
        // the general path for a batch with non-ASCII or malformed strings (the cycling edge values)
        RowType flat = RowTypes.parse("ROW<far BIGINT, s STRING, i32 INT, i64 BIGINT, u32 INT, u64 BIGINT,"
                + " s32 INT, s64 BIGINT, fx32 INT, fx64 BIGINT, sf32 INT, sf64 BIGINT, by BYTES, oi INT, os STRING>");
        assertThat(PARITY.assertParity(flat, EdgeValues.cyclingRows(flat), options(Scalars3.class, null))).isTrue();
        assertThat(PARITY.assertParity(flat, asciiRows(flat, 300), options(Scalars3.class, null))).isTrue();
        assertThat(PARITY.assertParity(flat, asciiRows(flat, 300), options(Scalars3.class, "NULL"))).isTrue();
        // proto2 presence: set zeros and empty strings are written
        RowType flat2 = RowTypes.parse("ROW<u32 INT, s STRING, l BIGINT, b BYTES, s64 BIGINT, fx64 BIGINT, i INT>");
        assertThat(PARITY.assertParity(flat2, asciiRows(flat2, 300), options(Proto2Messages.Scalars2.class, null)))
                .isTrue();
    }

    /**
     * Rows of INT, BIGINT, STRING and BYTES columns with ASCII strings only: nulls, zeros and empty values
     * now and then, negative and extreme numbers, strings up to 300 bytes (two-byte lengths).
     */
    private static List<RowData> asciiRows(RowType type, int count) {
        java.util.Random random = new java.util.Random(42);
        List<RowData> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int f = 0; f < type.getFieldCount(); f++) {
                int pick = random.nextInt(8);
                if (pick == 0) {
                    continue; // null
                }
                long n = pick == 1 ? 0 : pick == 2 ? Long.MIN_VALUE : pick == 3 ? -1 : random.nextLong() >> random.nextInt(64);
                int length = pick == 1 ? 0 : random.nextInt(pick == 4 ? 300 : 20);
                StringBuilder text = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    text.append((char) (32 + random.nextInt(95)));
                }
                switch (type.getTypeAt(f).getTypeRoot()) {
                    case INTEGER -> row.setField(f, (int) n);
                    case BIGINT -> row.setField(f, n);
                    case VARCHAR -> row.setField(f, StringData.fromString(text.toString()));
                    default -> row.setField(f, text.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                }
            }
            rows.add(row);
        }
        rows.add(new GenericRowData(type.getFieldCount()));
        return rows;
    }

    @Test
    void enumsByNumberIncludingNegativeAndUnknown() {
        cycleEdges(Scalars3.class, Scalars3.getDescriptor(), true);
        RowType type = RowTypes.parse("ROW<e INT, oe INT>");
        List<RowData> rows = new ArrayList<>();
        for (int n : new int[] {0, 1, 2, -1, 3, 99, Integer.MIN_VALUE}) {
            rows.add(GenericRowData.of(n, n));
        }
        assertThat(PARITY.assertParity(type, rows, options(Scalars3.class, null))).isTrue();
    }

    @Test
    void enumsByNameKnownUnknownAndEmpty() {
        RowType type = RowTypes.parse("ROW<e STRING, oe STRING>");
        List<RowData> rows = new ArrayList<>();
        for (String name : new String[] {"RED", "GREEN", "BLUE", "MINUS", "", "red", "GREENX", "\u00e9"}) {
            rows.add(GenericRowData.of(StringData.fromString(name), StringData.fromString(name)));
        }
        rows.add(GenericRowData.of(EdgeValues.invalidUtf8(), null));
        assertThat(PARITY.assertParity(type, rows, options(Scalars3.class, null))).isTrue();
    }

    @Test
    void repeatedPackedAndUnpackedWithNullElements() {
        cycleEdges(Repeated3.class, Repeated3.getDescriptor(), false);
        cycleEdges(Repeated3.class, Repeated3.getDescriptor(), true);
    }

    @Test
    void longPackedAndNestedValuesMoveTheirLength() {
        RowType type = RowTypes.parse("ROW<ri ARRAY<INT>, rs ARRAY<STRING>, rm ARRAY<ROW<x INT, s STRING, l ARRAY<BIGINT>>>>");
        List<RowData> rows = new ArrayList<>();
        for (int size : new int[] {1, 20, 127, 128, 200, 3000, 20000}) {
            Object[] ints = new Object[size];
            Object[] longs = new Object[size];
            for (int i = 0; i < size; i++) {
                ints[i] = i % 7 == 0 ? null : -i;
                longs[i] = (long) i * 1_000_003L;
            }
            String s = "\uD83D\uDE00".repeat(size / 4 + 1);
            GenericRowData inner = GenericRowData.of(size, StringData.fromString(s), new GenericArrayData(longs));
            rows.add(GenericRowData.of(new GenericArrayData(ints),
                    new GenericArrayData(new Object[] {StringData.fromString(s), null}),
                    new GenericArrayData(new Object[] {inner, null, inner})));
        }
        assertThat(PARITY.assertParity(type, rows, options(Repeated3.class, "n/a"))).isTrue();
    }

    @Test
    void mapsOfEveryKeyTypeWithNullKeysAndValues() {
        cycleEdges(Maps3.class, Maps3.getDescriptor(), false);
        cycleEdges(Maps3.class, Maps3.getDescriptor(), true);
    }

    @Test
    void mapOrderIsFlinksGrowingHashMapOrder() {
        RowType type = RowTypes.parse("ROW<msi MAP<STRING, INT>, mls MAP<BIGINT, STRING>, mfb MAP<INT, BOOLEAN>>");
        List<RowData> rows = new ArrayList<>();
        // sizes across the resizes of a default HashMap (12, 24, 48, 96 keys) and past the 8-per-bucket guard
        for (int size : new int[] {0, 1, 2, 9, 12, 13, 24, 25, 48, 49, 96, 97, 128, 129, 300}) {
            Map<Object, Object> strings = new LinkedHashMap<>();
            Map<Object, Object> longs = new LinkedHashMap<>();
            Map<Object, Object> ints = new LinkedHashMap<>();
            for (int k = 0; k < size; k++) {
                String key = switch (k % 4) {
                    case 0 -> "k" + k;
                    case 1 -> "\u00e9\u4e2d" + k;
                    case 2 -> "\uD83D\uDE00" + k;
                    default -> k % 2 == 0 ? "Aa" + k : "BB" + k;
                };
                strings.put(StringData.fromString(key), k);
                longs.put((long) k << 32 | (k * 31L), StringData.fromString(key));
                ints.put(k * 16, k % 2 == 0); // all in bucket 0 of a 16-table: HashMap resizes early or treeifies
            }
            rows.add(GenericRowData.of(new GenericMapData(strings), new GenericMapData(longs), new GenericMapData(ints)));
        }
        assertThat(PARITY.assertParity(type, rows, options(Maps3.class, null))).isTrue();
    }

    @Test
    void nestedMessagesEmptyAndNull() {
        cycleEdges(Outer3.class, Outer3.getDescriptor(), false);
        RowType type = PbRows.allFields(Outer3.getDescriptor(), false);
        GenericRowData emptyInner = new GenericRowData(3);
        GenericRowData deep = GenericRowData.of(emptyInner, null, null);
        List<RowData> rows = List.of(
                GenericRowData.of(emptyInner, new GenericArrayData(new Object[] {null, emptyInner}), deep),
                GenericRowData.of(null, new GenericArrayData(new Object[0]), new GenericRowData(3)));
        assertThat(PARITY.assertParity(type, rows, options(Outer3.class, null))).isTrue();
    }

    @Test
    void proto2PresenceWritesSetDefaults() {
        cycleEdges(Proto2Messages.Scalars2.class, Proto2Messages.Scalars2.getDescriptor(), false);
        cycleEdges(Proto2Messages.Scalars2.class, Proto2Messages.Scalars2.getDescriptor(), true);
        RowType type = RowTypes.parse("ROW<i INT, s STRING, bo BOOLEAN, d DOUBLE, with_default INT, e STRING>");
        List<RowData> rows = List.of(
                GenericRowData.of(0, StringData.fromString(""), false, 0.0, 0, StringData.fromString("LOW")),
                GenericRowData.of(0, StringData.fromString("x"), false, -0.0, 42, StringData.fromString("nope")),
                new GenericRowData(6));
        assertThat(PARITY.assertParity(type, rows, options(Proto2Messages.Scalars2.class, null))).isTrue();
    }

    @Test
    void oneofTakesTheLastNonNullMemberInColumnOrder() {
        RowType type = RowTypes.parse("ROW<c ROW<x INT>, z INT, a INT, b STRING>");
        GenericRowData c = GenericRowData.of(5);
        List<RowData> rows = List.of(
                GenericRowData.of(c, 1, 2, StringData.fromString("b")),
                GenericRowData.of(c, 1, 0, null),
                GenericRowData.of(c, 0, null, null),
                GenericRowData.of(null, null, null, StringData.fromString("")),
                new GenericRowData(4));
        assertThat(PARITY.assertParity(type, rows, options(Choice3.class, null))).isTrue();
        cycleEdges(Choice3.class, Choice3.getDescriptor(), false);
    }

    @Test
    void proto2RequiredFieldNullFailsLikeFlink() {
        RowType type = RowTypes.parse("ROW<name STRING, id INT>");
        List<RowData> rows = List.of(GenericRowData.of(StringData.fromString("a"), 1),
                GenericRowData.of(StringData.fromString("b"), null));
        assertThat(PARITY.assertParity(type, rows, options(Proto2Messages.Required2.class, null))).isFalse();
        RowType noId = RowTypes.parse("ROW<name STRING>");
        assertThat(PARITY.assertParity(noId, List.of(GenericRowData.of(StringData.fromString("a"))),
                options(Proto2Messages.Required2.class, null))).isFalse();
    }

    @Test
    void aNullElementOfAMessageWithRequiredFieldsFailsLikeFlink() {
        RowType type = RowTypes.parse("ROW<items ARRAY<ROW<id INT, name STRING>>, by_name MAP<STRING, ROW<id INT>>>");
        GenericRowData ok = GenericRowData.of(1, StringData.fromString("n"));
        Map<Object, Object> byName = new LinkedHashMap<>();
        byName.put(StringData.fromString("k"), GenericRowData.of(2));
        Map<Object, Object> nullValue = new LinkedHashMap<>();
        nullValue.put(StringData.fromString("k"), null);
        Map<String, String> options = options(Proto2Messages.HoldsRequired2.class, null);
        assertThat(PARITY.assertParity(type, List.of(
                GenericRowData.of(new GenericArrayData(new Object[] {ok}), new GenericMapData(byName)),
                GenericRowData.of(new GenericArrayData(new Object[] {ok, null}), null)), options)).isFalse();
        assertThat(PARITY.assertParity(type, List.of(
                GenericRowData.of(null, new GenericMapData(byName)),
                GenericRowData.of(null, new GenericMapData(nullValue))), options)).isFalse();
        assertThat(PARITY.assertParity(type, List.of(
                GenericRowData.of(new GenericArrayData(new Object[] {ok}), new GenericMapData(byName))), options))
                .isTrue();
    }

    @Test
    void malformedUtf8IsDecodedAndReencodedAsFlinkDoes() {
        RowType type = RowTypes.parse("ROW<s STRING, os STRING>");
        List<RowData> rows = List.of(GenericRowData.of(EdgeValues.invalidUtf8(), EdgeValues.invalidUtf8()));
        assertThat(PARITY.assertParity(type, rows, options(Scalars3.class, null))).isTrue();
        RowType maps = RowTypes.parse("ROW<msi MAP<STRING, INT>, msb MAP<STRING, BYTES>>");
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(EdgeValues.invalidUtf8(), 1);
        m.put(StringData.fromString("a"), 2);
        Map<Object, Object> b = new LinkedHashMap<>();
        b.put(EdgeValues.invalidUtf8(), new byte[] {1});
        assertThat(PARITY.assertParity(maps, List.of(GenericRowData.of(new GenericMapData(m), new GenericMapData(b))),
                options(Maps3.class, null))).isTrue();
    }

    @Test
    void keyProjectionWritesTheRenamedColumns() {
        RowType batch = RowTypes.parse("ROW<k_b BOOLEAN, v DOUBLE, k_s STRING, payload ARRAY<INT>, k_i32 INT>");
        Projection key = Projection.of(batch, 4, 0, 2).withNames(List.of("i32", "b", "s"));
        Projection value = Projection.of(batch, 3).withNames(List.of("ri"));
        PbRows random = new PbRows(7);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            GenericRowData r = random.row(Repeated3.getDescriptor(), RowTypes.parse("ROW<ri ARRAY<INT>, rd ARRAY<DOUBLE>>"));
            GenericRowData s = random.row(Scalars3.getDescriptor(), RowTypes.parse("ROW<b BOOLEAN, d DOUBLE, s STRING, i32 INT>"));
            rows.add(GenericRowData.of(s.getField(0), s.getField(1), s.getField(2), r.getField(0), s.getField(3)));
        }
        assertThat(PARITY.assertParity(key, rows, options(Scalars3.class, null))).isTrue();
        assertThat(PARITY.assertParity(value, rows, options(Repeated3.class, null))).isTrue();
    }
}
