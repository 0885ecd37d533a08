package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Byte-for-byte comparison of the columnar JSON encoder with Flink's serializer on the same rows: Flink
 * serializes the {@code RowData}; the rows are transposed to Arrow with {@link RowDataArrowWriter} and
 * encoded with {@code Formats.encoder("json", ...)}. If Flink rejects a row (a null map key under FAIL), the
 * encoder must reject the batch with an {@link EncodeException} for the first such row.
 */
final class ParityCheck {
    private ParityCheck() {}

    /** Every column of {@code rows}, written with {@code options}; false if Flink rejected a row. */
    static boolean assertParity(RowType type, List<? extends RowData> rows, Map<String, String> options) {
        return assertParity(Projection.all(type), rows, options);
    }

    /** The projected columns of {@code rows}, transposed through {@link RowDataArrowWriter}. */
    static boolean assertParity(Projection projection, List<? extends RowData> rows, Map<String, String> options) {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(projection.batchType(), allocator)) {
            rows.forEach(writer::write);
            return assertParity(projection, rows, writer.finish(), options);
        }
    }

    /** {@code batch} must carry {@code rows} (e.g. built by hand with Large* vectors). */
    static boolean assertParity(
            Projection projection, List<? extends RowData> rows, VectorSchemaRoot batch, Map<String, String> options) {
        List<byte[]> expected = new ArrayList<>();
        int flinkFailsAt = -1;
        FlinkJsonOracle oracle = FlinkJsonOracle.of(projection.outputType(), options);
        for (int i = 0; i < rows.size() && flinkFailsAt < 0; i++) {
            try {
                expected.add(oracle.serialize(project(projection, rows.get(i))));
            } catch (RuntimeException e) {
                flinkFailsAt = i;
            }
        }
        BatchEncoder encoder = Formats.encoder("json", projection, options);
        if (flinkFailsAt >= 0) {
            int row = flinkFailsAt;
            assertThatThrownBy(() -> encoder.encode(batch))
                    .as("Flink rejects row %d of %s with %s", row, projection, options)
                    .isInstanceOfSatisfying(EncodeException.class, e -> assertThat(e.row()).isEqualTo(row));
            return false;
        }
        RecordSlab slab = encoder.encode(batch);
        assertThat(slab.recordCount()).as("records of %s", projection).isEqualTo(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            byte[] actual = slab.isNull(i) ? null : slab.copyRecord(i);
            if (actual == null || !java.util.Arrays.equals(expected.get(i), actual)) {
                fail(mismatch(projection, rows, batch, options, i, expected.get(i), actual));
            }
        }
        return true;
    }

    private static String mismatch(Projection projection, List<? extends RowData> rows, VectorSchemaRoot batch,
            Map<String, String> options, int row, byte[] expected, byte[] actual) {
        return "JSON parity mismatch at row " + row + ", column " + firstDifferingColumn(projection, rows, batch,
                options, row) + "\n  row type: " + projection + "\n  options:  " + options
                + "\n  expected (Flink): " + text(expected) + "\n  actual:           " + text(actual);
    }

    /** Re-encodes the row one column at a time on both sides to name the first column that differs. */
    private static String firstDifferingColumn(Projection projection, List<? extends RowData> rows,
            VectorSchemaRoot batch, Map<String, String> options, int row) {
        for (int c = 0; c < projection.fieldCount(); c++) {
            Projection single = Projection.of(projection.batchType(), projection.field(c))
                    .withNames(List.of(projection.name(c)));
            byte[] flink = FlinkJsonOracle.of(single.outputType(), options).serialize(project(single, rows.get(row)));
            byte[] ours;
            try {
                ours = Formats.encoder("json", single, options).encode(batch).copyRecord(row);
            } catch (RuntimeException e) {
                return "'" + projection.name(c) + "' (encoder threw " + e + ")";
            }
            if (!java.util.Arrays.equals(flink, ours)) {
                return "'" + projection.name(c) + "': Flink " + text(flink) + " vs " + text(ours);
            }
        }
        return "(no single column differs)";
    }

    static GenericRowData project(Projection projection, RowData row) {
        GenericRowData out = new GenericRowData(projection.fieldCount());
        for (int i = 0; i < projection.fieldCount(); i++) {
            out.setField(i, RowData.createFieldGetter(projection.type(i), projection.field(i)).getFieldOrNull(row));
        }
        return out;
    }

    static String text(byte[] bytes) {
        return bytes == null ? "<null record>" : new String(bytes, StandardCharsets.UTF_8);
    }
}
