package io.columnarkafka.format.parity;

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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Byte-for-byte comparison of a columnar encoder with Flink's serializer on the same rows: Flink
 * serializes the {@code RowData}; the rows, as given and as {@code BinaryRowData}, are transposed to
 * Arrow with {@link RowDataArrowWriter} and
 * encoded with {@code Formats.encoder(format, ...)}. A null from Flink must be a null record. If Flink
 * rejects a row, the encoder must reject the batch with an {@link EncodeException} for the first such row.
 */
public final class ParityCheck {
    /** Flink's serializer for a row type and options: the oracle. */
    @FunctionalInterface
    public interface Oracle {
        /** Flink's bytes for {@code row}, or null for a null record; throws where Flink throws. */
        byte[] serialize(RowData row);
    }

    /** Opens Flink's serializer for an output row type and the format's options (Flink keys, no prefix). */
    @FunctionalInterface
    public interface OracleFactory {
        Oracle open(RowType outputType, Map<String, String> options);
    }

    private final String format;
    private final OracleFactory oracles;

    public ParityCheck(String format, OracleFactory oracles) {
        this.format = format;
        this.oracles = oracles;
    }

    /** Every column of {@code rows}, written with {@code options}; false if Flink rejected a row. */
    public boolean assertParity(RowType type, List<? extends RowData> rows, Map<String, String> options) {
        return assertParity(Projection.all(type), rows, options);
    }

    /**
     * The projected columns of {@code rows}, transposed through {@link RowDataArrowWriter} twice: as given
     * (its getter path) and as {@code BinaryRowData}, the rows Flink's planner hands a sink (its direct
     * binary path). Both must match Flink, and agree on whether Flink rejected a row.
     */
    public boolean assertParity(Projection projection, List<? extends RowData> rows, Map<String, String> options) {
        boolean compared = assertTransposedParity(projection, rows, options);
        RowDataSerializer binary = new RowDataSerializer(projection.batchType());
        List<RowData> binaryRows = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            binaryRows.add(binary.toBinaryRow(row).copy()); // toBinaryRow reuses one row
        }
        assertThat(assertTransposedParity(projection, binaryRows, options))
                .as("binary rows compared as the given rows were").isEqualTo(compared);
        return compared;
    }

    /**
     * As {@link #assertParity(Projection, List, Map)} for the rows as given only: for a case where Flink
     * itself behaves differently on {@code BinaryRowData} (a test then pins that difference separately).
     */
    public boolean assertParityAsGiven(RowType type, List<? extends RowData> rows, Map<String, String> options) {
        return assertTransposedParity(Projection.all(type), rows, options);
    }

    private boolean assertTransposedParity(Projection projection, List<? extends RowData> rows,
            Map<String, String> options) {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(projection.batchType(), allocator)) {
            rows.forEach(writer::write);
            long binaryRows = rows.stream().filter(BinaryRowData.class::isInstance).count();
            assertThat(writer.directRowCount()).as("binary rows read directly").isEqualTo(binaryRows);
            return assertParity(projection, rows, writer.finish(), options);
        }
    }

    /**
     * {@code batch} must carry {@code rows} (e.g. built by hand with Large* vectors). Returns true if bytes were
     * compared, false if Flink rejected a row and the encoder rejected the batch for the same row.
     */
    public boolean assertParity(
            Projection projection, List<? extends RowData> rows, VectorSchemaRoot batch, Map<String, String> options) {
        List<byte[]> expected = new ArrayList<>();
        int flinkFailsAt = -1;
        Oracle oracle = oracles.open(projection.outputType(), options);
        for (int i = 0; i < rows.size() && flinkFailsAt < 0; i++) {
            try {
                expected.add(oracle.serialize(project(projection, rows.get(i))));
            } catch (RuntimeException e) {
                flinkFailsAt = i;
            }
        }
        BatchEncoder encoder = Formats.encoder(format, projection, options);
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
            if (!Arrays.equals(expected.get(i), actual)) {
                fail(mismatch(projection, rows, batch, options, i, expected.get(i), actual));
            }
        }
        return true;
    }

    private String mismatch(Projection projection, List<? extends RowData> rows, VectorSchemaRoot batch,
            Map<String, String> options, int row, byte[] expected, byte[] actual) {
        return format + " parity mismatch at row " + row + ", column "
                + firstDifferingColumn(projection, rows, batch, options, row) + "\n  row type: " + projection
                + "\n  options:  " + options + "\n  expected (Flink): " + text(expected)
                + "\n  actual:           " + text(actual);
    }

    /** Re-encodes the row one column at a time on both sides to name the first column that differs. */
    private String firstDifferingColumn(Projection projection, List<? extends RowData> rows,
            VectorSchemaRoot batch, Map<String, String> options, int row) {
        for (int c = 0; c < projection.fieldCount(); c++) {
            Projection single = Projection.of(projection.batchType(), projection.field(c))
                    .withNames(List.of(projection.name(c)));
            byte[] flink;
            byte[] ours;
            try {
                flink = oracles.open(single.outputType(), options).serialize(project(single, rows.get(row)));
                RecordSlab slab = Formats.encoder(format, single, options).encode(batch);
                ours = slab.isNull(row) ? null : slab.copyRecord(row);
            } catch (RuntimeException e) {
                return "'" + projection.name(c) + "' (threw " + e + ")";
            }
            if (!Arrays.equals(flink, ours)) {
                return "'" + projection.name(c) + "': Flink " + text(flink) + " vs " + text(ours);
            }
        }
        return "(no single column differs)";
    }

    /** The projected fields of {@code row}, as the connector hands them to the format. */
    public static GenericRowData project(Projection projection, RowData row) {
        GenericRowData out = new GenericRowData(projection.fieldCount());
        out.setRowKind(row.getRowKind());
        for (int i = 0; i < projection.fieldCount(); i++) {
            out.setField(i, RowData.createFieldGetter(projection.type(i), projection.field(i)).getFieldOrNull(row));
        }
        return out;
    }

    /** Bytes as UTF-8 text for messages; a null record as {@code <null record>}. */
    public static String text(byte[] bytes) {
        return bytes == null ? "<null record>" : new String(bytes, StandardCharsets.UTF_8);
    }
}
