package io.columnarkafka.format.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static io.columnarkafka.format.json.JsonNestedEncoderTest.s;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** Plan validation, batch checks, failures that leave nothing half-written, and slab reuse. */
class JsonBatchEncoderTest extends FlinkJsonOracle {

    @Test
    void mapKeysMustBeStringsAsInFlink() {
        RowType type = RowTypes.parse("ROW<ok MAP<STRING, INT>, bad MAP<INT, STRING>>");
        assertThatThrownBy(() -> new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bad'")
                .hasMessageContaining("JSON format doesn't support non-string as key type of map");
        assertThatThrownBy(() -> flink(type, JsonFormatOptions.defaults()))
                .hasMessageContaining("JSON format doesn't support non-string as key type of map");
        RowType multiset = RowTypes.parse("ROW<r ROW<ms MULTISET<BIGINT>>>");
        assertThatThrownBy(() -> new JsonBatchEncoder(Projection.all(multiset), JsonFormatOptions.defaults()))
                .hasMessageContaining("'r.ms'");
    }

    @Test
    void typesWithoutArrowLayoutAreRejectedWhenPlanned() {
        RowType type = RowTypes.parse("ROW<i NULL>");
        assertThatThrownBy(() -> new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults()))
                .isInstanceOf(BatchLayoutException.class)
                .hasMessageContaining("'i'");
    }

    @Test
    void batchOfAnotherLayoutFailsBeforeAnyByteIsWritten() throws Exception {
        RowType type = RowTypes.parse("ROW<a INT, b STRING>");
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults());
        Schema wrong = new Schema(List.of(
                new Field("a", FieldType.nullable(new ArrowType.Int(64, true)), null),
                new Field("b", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
        try (VectorSchemaRoot good = batch(type, false, rows(new Object[] {1, null}));
                VectorSchemaRoot bad = VectorSchemaRoot.create(wrong, allocator)) {
            RecordSlab slab = encoder.encode(good);
            assertThat(slab.recordCount()).isEqualTo(1);
            ((BigIntVector) bad.getVector(0)).setSafe(0, 1);
            bad.setRowCount(1);
            assertThatThrownBy(() -> encoder.encode(bad))
                    .isInstanceOf(BatchLayoutException.class)
                    .hasMessageContaining("'a'");
            assertThat(slab.recordCount()).as("the previous batch's records are not handed out again").isZero();
            assertThat(new String(encoder.encode(good).copyRecord(0), StandardCharsets.UTF_8))
                    .isEqualTo("{\"a\":1,\"b\":null}");
        }
    }

    @Test
    void decreasingOffsetsAreRejectedBeforeReadingMemory() throws Exception {
        RowType type = RowTypes.parse("ROW<s STRING>");
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults());
        try (VectorSchemaRoot root = batch(type, false, rows(new Object[] {s("abc")},
                new Object[] {s("de")}))) {
            VarCharVector strings = (VarCharVector) root.getVector(0);
            strings.getOffsetBuffer().setInt(4, 1_000_000); // value 0 now ends far beyond the data buffer
            assertThatThrownBy(() -> encoder.encode(root))
                    .isInstanceOf(BatchLayoutException.class)
                    .hasMessageContaining("'s'")
                    .hasMessageContaining("offsets decrease");
        }
    }

    @Test
    void nullMapKeyUnderFailNamesColumnAndRowAndLeavesNothing() throws Exception {
        RowType type = RowTypes.parse("ROW<id INT, m MAP<STRING, INT>>");
        List<GenericRowData> rows = rows(
                new Object[] {1, JsonNestedEncoderTest.map(s("a"), 1)},
                new Object[] {2, JsonNestedEncoderTest.map(s("a"), 1, null, 2)});
        JsonRowDataSerializationSchema flink = flink(type, JsonFormatOptions.defaults());
        assertThatThrownBy(() -> flink.serialize(rows.get(1))).hasStackTraceContaining("null keys");
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults());
        try (VectorSchemaRoot good = batch(type, false, rows.subList(0, 1));
                VectorSchemaRoot root = batch(type, false, rows)) {
            RecordSlab slab = encoder.encode(good);
            assertThat(slab.recordCount()).isEqualTo(1);
            assertThatThrownBy(() -> encoder.encode(root))
                    .isInstanceOfSatisfying(EncodeException.class, e -> {
                        assertThat(e.column()).isEqualTo("m");
                        assertThat(e.row()).isEqualTo(1);
                        assertThat(e).hasMessageContaining("map-null-key.mode");
                    });
            assertThat(slab.recordCount()).isZero();
            assertThat(slab.size()).isZero();
        }
    }

    @Test
    void timeOutsideADayFailsLikeFlink() throws Exception {
        RowType type = RowTypes.parse("ROW<t TIME(3)>");
        List<GenericRowData> rows = rows(new Object[] {0}, new Object[] {86_400_000});
        assertThatThrownBy(() -> flink(type, JsonFormatOptions.defaults()).serialize(rows.get(1)))
                .isInstanceOf(RuntimeException.class);
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults());
        try (VectorSchemaRoot root = batch(type, false, rows)) {
            assertThatThrownBy(() -> encoder.encode(root))
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.row()).isEqualTo(1));
        }
    }

    @Test
    void decimalWiderThanItsPrecisionFails() throws Exception {
        RowType type = RowTypes.parse("ROW<d DECIMAL(5, 2)>");
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults());
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(type), allocator)) {
            DecimalVector decimals = (DecimalVector) root.getVector(0);
            decimals.allocateNew(1);
            // 1000.00 has 6 digits: Flink's DecimalData.fromBigDecimal would refuse it for DECIMAL(5, 2).
            decimals.setBigEndian(0, java.math.BigInteger.valueOf(100_000).toByteArray());
            root.setRowCount(1);
            assertThatThrownBy(() -> encoder.encode(root))
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.column()).isEqualTo("d"))
                    .hasMessageContaining("DECIMAL(5, 2)");
        }
    }

    @Test
    void projectionWritesSelectedColumnsUnderOutputNames() throws Exception {
        RowType type = RowTypes.parse("ROW<k_id INT, v STRING, k_name STRING>");
        Projection key = Projection.of(type, 2, 0).withNames(List.of("name", "id"));
        var encoder = Formats.encoder("json", key, Map.of());
        RowType keyType = key.outputType();
        List<GenericRowData> rows = rows(new Object[] {7, s("v"), s("n")});
        try (VectorSchemaRoot root = batch(type, false, rows)) {
            byte[] expected = flink(keyType, JsonFormatOptions.defaults()).serialize(GenericRowData.of(s("n"), 7));
            assertThat(encoder.encode(root).copyRecord(0)).isEqualTo(expected);
        }
    }

    @Test
    void slabIsReusedAcrossBatchesOfDifferentSizes() throws Exception {
        RowType type = RowTypes.parse("ROW<i INT, s STRING>");
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), JsonFormatOptions.defaults());
        JsonRowDataSerializationSchema flink = flink(type, JsonFormatOptions.defaults());
        for (int size : new int[] {0, 1, 5000, 3, 0, 20000}) {
            Object[][] values = new Object[size][];
            for (int r = 0; r < size; r++) {
                values[r] = new Object[] {r, s("value-" + r + (r % 7 == 0 ? "\n" : ""))};
            }
            List<GenericRowData> rows = rows(values);
            try (VectorSchemaRoot root = batch(type, false, rows)) {
                RecordSlab slab = encoder.encode(root);
                assertThat(slab.recordCount()).isEqualTo(size);
                for (int r = 0; r < size; r++) {
                    assertThat(slab.copyRecord(r)).isEqualTo(flink.serialize(rows.get(r)));
                }
            }
        }
    }
}
