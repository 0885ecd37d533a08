package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.ArrowRowViewProperties;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.parity.RandomValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * {@link ArrowInPlaceRowView#binaryRow}, what the Arrow-to-rows edge hands Flink, against Flink's own {@link
 * RowDataSerializer} as the oracle: over random row types (every type of the Arrow layout, flat columns and
 * strings most often, nested rows, arrays, maps, multisets, decimals up to 38 digits, every time precision) and
 * random rows ({@link RandomValues}: edge values, nulls at every level, empty and non-BMP strings, NaN, min/max
 * integers, timestamps before 1970 and at 9999, nanos), each row read back from an Arrow batch in every
 * timestamp layout is byte for byte the {@link BinaryRowData} Flink's {@code toBinaryRow} makes of the row that
 * was written, and Flink's serializer writes the same bytes for it to a network channel. Rows are read in a
 * shuffled order, as a selection may skip. The container asserts how much was compared.
 */
class ArrowBinaryRowProperties {
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong DIRECT_VALUES = new AtomicLong();
    private static final AtomicLong STRING_VALUES = new AtomicLong();
    private static final AtomicLong OTHER_VALUES = new AtomicLong();
    private static final AtomicLong NULLS = new AtomicLong();

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE, shrinking = ShrinkingMode.BOUNDED)
    void everyRowIsTheBinaryRowFlinkMakesOfIt(@ForAll("types") RowType type, @ForAll long seed,
            @ForAll("rowCounts") int rowCount, @ForAll ArrowLayout.NanoTimestamps layout) throws IOException {
        // Arrow's own nanosecond unit holds 1677..2262 only; the other two layouts carry Flink's whole range.
        RandomValues random = new RandomValues(seed, true, layout != ArrowLayout.NanoTimestamps.ARROW_NANOSECOND);
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < rowCount; i++) {
            rows.add(random.row(type));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rowCount; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        RowDataSerializer flink = new RowDataSerializer(type);
        ArrowInPlaceRowView view = new ArrowInPlaceRowView(type);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, null, layout, allocator)) {
            rows.forEach(writer::write);
            view.bind(writer.finish());
            for (int i : order) {
                BinaryRowData ours = view.binaryRow(i);
                BinaryRowData expected = flink.toBinaryRow(rows.get(i)).copy();
                assertThat(ours).as("row %d of %s, %s", i, type.asSummaryString(), layout).isEqualTo(expected);
                assertThat(channelBytes(flink, ours)).as("row %d serialized", i)
                        .isEqualTo(channelBytes(flink, rows.get(i)));
                count(rows.get(i), type);
                ROWS.incrementAndGet();
            }
        }
    }

    private static byte[] channelBytes(RowDataSerializer serializer, org.apache.flink.table.data.RowData row)
            throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(row, out);
        return out.getCopyOfBuffer();
    }

    /** Counts the top-level values by how the edge writes them: unboxed from the vectors, strings, the rest. */
    private static void count(GenericRowData row, RowType type) {
        for (int i = 0; i < row.getArity(); i++) {
            if (row.isNullAt(i)) {
                NULLS.incrementAndGet();
                continue;
            }
            switch (type.getTypeAt(i).getTypeRoot()) {
                case BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, BIGINT, FLOAT, DOUBLE,
                        TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DIRECT_VALUES.incrementAndGet();
                case CHAR, VARCHAR -> STRING_VALUES.incrementAndGet();
                default -> OTHER_VALUES.incrementAndGet();
            }
        }
    }

    @AfterContainer
    static void enoughWasCompared() {
        // A run on a fresh seed compared 19,102 rows: 47,094 unboxed values, 29,151 strings, 28,293 others, 21,377
        // nulls; rows vary by ~800 (200 uniform counts of 0..200), each bound is more than 4 standard deviations below.
        assertThat(ROWS.get()).as("rows compared").isGreaterThanOrEqualTo(15_000);
        assertThat(DIRECT_VALUES.get()).as("values written unboxed").isGreaterThanOrEqualTo(25_000);
        assertThat(STRING_VALUES.get()).as("strings written from the data buffer").isGreaterThanOrEqualTo(12_000);
        assertThat(OTHER_VALUES.get()).as("values written through Flink's BinaryWriter").isGreaterThanOrEqualTo(12_000);
        assertThat(NULLS.get()).as("top-level nulls").isGreaterThanOrEqualTo(9_000);
    }

    /** Uniform, not jqwik's bias to small numbers, so the container's counts vary little from run to run. */
    @Provide
    Arbitrary<Integer> rowCounts() {
        return Arbitraries.integers().between(0, 200).withDistribution(RandomDistribution.uniform());
    }

    /** Flat columns and strings (the Nexmark edges' rows) most often, nested types too. */
    @Provide
    Arbitrary<RowType> types() {
        Arbitrary<LogicalType> strings = Arbitraries.of(new VarCharType(VarCharType.MAX_LENGTH), new CharType(3));
        Arbitrary<LogicalType> field = Arbitraries.frequencyOf(Tuple.of(5, ArrowRowViewProperties.scalarType()),
                Tuple.of(2, Combinators.combine(strings, Arbitraries.of(true, false)).as(LogicalType::copy)),
                Tuple.of(1, ArrowRowViewProperties.type(2)));
        return field.list().ofMinSize(1).ofMaxSize(12).map(types -> {
            List<RowType.RowField> fields = new ArrayList<>();
            for (int i = 0; i < types.size(); i++) {
                fields.add(new RowType.RowField("f" + i, types.get(i)));
            }
            return new RowType(false, fields);
        });
    }
}
