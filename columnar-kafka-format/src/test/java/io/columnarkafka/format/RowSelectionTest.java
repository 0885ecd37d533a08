package io.columnarkafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchEncoder#encode(org.apache.arrow.vector.VectorSchemaRoot, int[], int)}: the records of the
 * selected rows are exactly the records the whole batch has for them, and rows not selected are never read.
 */
class RowSelectionTest {
    private static final RowType MIXED = RowTypes.parse("ROW<id INT, name STRING, price DECIMAL(10, 2),"
            + " ts TIMESTAMP(3), tags ARRAY<STRING>, x DOUBLE, b BYTES>");

    @ParameterizedTest
    @CsvSource({"json, ", "csv, ", "avro, ", "debezium-json, ", "raw, 1"})
    void selectedRowsEncodeAsInTheWholeBatch(String format, Integer onlyColumn) {
        Projection projection = onlyColumn == null ? Projection.all(MIXED) : Projection.of(MIXED, onlyColumn);
        RandomValues values = new RandomValues(42, false);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(MIXED, allocator)) {
            for (int i = 0; i < 200; i++) {
                writer.write(values.row(MIXED));
            }
            var batch = writer.finish();
            BatchEncoder encoder = Formats.encoder(format, projection, Map.of());
            List<byte[]> whole = records(encoder.encode(batch));
            int[] selected = {0, 3, 4, 5, 99, 150, 199, -1, -1}; // only the first count are read
            RecordSlab slab = encoder.encode(batch, selected, 7);
            assertThat(slab.recordCount()).isEqualTo(7);
            for (int k = 0; k < 7; k++) {
                assertThat(slab.isNull(k) ? null : slab.copyRecord(k)).as("record %d", k)
                        .isEqualTo(whole.get(selected[k]));
            }
            assertThat(encoder.encode(batch, selected, 0).recordCount()).isZero();
        }
    }

    @Test
    void aValueTheFormatRejectsFailsOnlyWhereItIsSelectedNamingTheBatchRow() {
        RowType type = RowTypes.parse("ROW<id INT, m MAP<STRING, INT>>");
        Map<Object, Object> nullKey = new LinkedHashMap<>();
        nullKey.put(null, 1);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(GenericRowData.of(1, new GenericMapData(Map.of(StringData.fromString("k"), 1))));
            writer.write(GenericRowData.of(2, new GenericMapData(nullKey))); // json FAILs on a null map key
            writer.write(GenericRowData.of(3, null));
            var batch = writer.finish();
            BatchEncoder json = Formats.encoder("json", Projection.all(type), Map.of());
            assertThatThrownBy(() -> json.encode(batch)).isInstanceOf(EncodeException.class);
            RecordSlab slab = json.encode(batch, new int[] {0, 2}, 2);
            List<String> texts = new ArrayList<>();
            for (byte[] record : records(slab)) {
                texts.add(new String(record, java.nio.charset.StandardCharsets.UTF_8));
            }
            assertThat(texts).containsExactly("{\"id\":1,\"m\":{\"k\":1}}", "{\"id\":3,\"m\":null}");
            assertThatThrownBy(() -> json.encode(batch, new int[] {0, 1}, 2))
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.row()).isEqualTo(1));
        }
    }

    private static List<byte[]> records(RecordSlab slab) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < slab.recordCount(); i++) {
            out.add(slab.isNull(i) ? null : slab.copyRecord(i));
        }
        return out;
    }
}
