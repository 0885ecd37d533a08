package io.columnarkafka.format.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout.NanoTimestamps;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.arrow.WideTimestamps;
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
import org.apache.flink.table.types.logical.LogicalType;
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
    private int wideTimestampCases;
    private int beyondArrowNanosCases;

    public ParityCheck(String format, OracleFactory oracles) {
        this.format = format;
        this.oracles = oracles;
    }

    /** Every column of {@code rows}, written with {@code options}; false if Flink rejected a row. */
    public boolean assertParity(RowType type, List<? extends RowData> rows, Map<String, String> options) {
        return assertParity(Projection.all(type), rows, options);
    }

    /**
     * The projected columns of {@code rows}, transposed through {@link RowDataArrowWriter} three times: as
     * given (usually {@code GenericRowData}: its planned getter path), as {@code BoxedWrapperRowData} (what
     * a chained Calc hands a sink: the same path) and as {@code BinaryRowData} (after a network exchange:
     * its direct binary path). All must match Flink, and agree on whether Flink rejected a row. A type with a
     * TIMESTAMP(7–9) / TIMESTAMP_LTZ(7–9) anywhere is checked in both {@link NanoTimestamps} layouts: the
     * full-range one always, Arrow's nanoseconds only where every value fits its 1677..2262 range.
     */
    public boolean assertParity(Projection projection, List<? extends RowData> rows, Map<String, String> options) {
        RowDataSerializer binary = new RowDataSerializer(projection.batchType());
        List<RowData> binaryRows = new ArrayList<>(rows.size());
        List<RowData> boxedRows = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            binaryRows.add(binary.toBinaryRow(row).copy()); // toBinaryRow reuses one row
            boxedRows.add(BoxedRows.of(projection.batchType(), row));
        }
        return assertInLayouts(projection, List.of(rows, boxedRows, binaryRows), options);
    }

    /**
     * As {@link #assertParity(Projection, List, Map)} for the rows as given only: for a case where Flink
     * itself behaves differently on {@code BinaryRowData} (a test then pins that difference separately).
     */
    public boolean assertParityAsGiven(RowType type, List<? extends RowData> rows, Map<String, String> options) {
        return assertInLayouts(Projection.all(type), List.of(rows), options);
    }

    /** Cases compared (or rejected as Flink rejects them) in the full-range timestamp layout so far. */
    public int wideTimestampCases() {
        return wideTimestampCases;
    }

    /** Of those, cases with a timestamp outside Arrow's 64-bit nanoseconds, which only that layout carries. */
    public int beyondArrowNanosCases() {
        return beyondArrowNanosCases;
    }

    private boolean assertInLayouts(Projection projection, List<List<? extends RowData>> inputs,
            Map<String, String> options) {
        Boolean compared = null;
        boolean beyondArrowNanos = false;
        for (NanoTimestamps nanos : layouts(projection.batchType())) {
            for (List<? extends RowData> rows : inputs) {
                Boolean result = assertTransposedParity(projection, rows, options, nanos);
                if (result == null) {
                    beyondArrowNanos = true;
                    continue;
                }
                if (beyondArrowNanos && nanos == NanoTimestamps.EPOCH_MILLIS_AND_NANOS && rows == inputs.get(0)) {
                    beyondArrowNanosCases++;
                }
                if (nanos == NanoTimestamps.EPOCH_MILLIS_AND_NANOS && rows == inputs.get(0)) {
                    wideTimestampCases++;
                }
                if (compared == null) {
                    compared = result;
                } else {
                    assertThat(result).as("%s rows compared in the %s layout as in the others",
                            rowClass(rows), nanos).isEqualTo(compared);
                }
            }
        }
        assertThat(compared).as("some layout carried the rows").isNotNull();
        return compared;
    }

    /** The full-range layout only for a type that has nanosecond timestamps (elsewhere it is the same). */
    private static List<NanoTimestamps> layouts(LogicalType type) {
        return hasNanosecondTimestamp(type)
                ? List.of(NanoTimestamps.ARROW_NANOSECOND, NanoTimestamps.EPOCH_MILLIS_AND_NANOS)
                : List.of(NanoTimestamps.ARROW_NANOSECOND);
    }

    private static boolean hasNanosecondTimestamp(LogicalType type) {
        return WideTimestamps.applies(type)
                || type.getChildren().stream().anyMatch(ParityCheck::hasNanosecondTimestamp);
    }

    /**
     * True if bytes were compared, false if Flink and the encoder rejected the same row, null if the
     * {@link NanoTimestamps#ARROW_NANOSECOND} layout cannot hold a value of the rows (the writer says so).
     */
    private Boolean assertTransposedParity(Projection projection, List<? extends RowData> rows,
            Map<String, String> options, NanoTimestamps nanos) {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(projection.batchType(), null, nanos, allocator)) {
            try {
                rows.forEach(writer::write);
            } catch (IllegalArgumentException e) {
                if (nanos == NanoTimestamps.ARROW_NANOSECOND && e.getMessage().contains(OUTSIDE_ARROW_NANOS)) {
                    return null;
                }
                throw e;
            }
            long binaryRows = rows.stream().filter(BinaryRowData.class::isInstance).count();
            assertThat(writer.directRowCount()).as("binary rows read directly").isEqualTo(binaryRows);
            assertThat(writer.unplannedRowCount()).as("rows outside the planned transpose").isZero();
            try {
                return assertParity(projection, rows, writer.finish(), options);
            } catch (AssertionError e) {
                throw new AssertionError(nanos + " layout, " + rowClass(rows) + " rows: "
                        + e.getMessage(), e);
            }
        }
    }

    private static String rowClass(List<? extends RowData> rows) {
        return rows.isEmpty() ? "no" : rows.get(0).getClass().getSimpleName();
    }

    /** What {@code RowDataArrowWriter} says of a timestamp that Arrow's 64-bit nanoseconds cannot hold. */
    private static final String OUTSIDE_ARROW_NANOS = "outside the range of Arrow nanosecond timestamps";

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
