package io.columnarkafka.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Random nested row types (every type of the layout, NOT NULL or nullable at every level) and random
 * rows of {@link RandomValues} (edge values, nulls everywhere, null map keys): every value read through
 * {@link ArrowRowView} with Flink's {@link RowData#createFieldGetter} (and {@code ArrayData}'s element
 * getters below) equals the same value read from Arrow with Arrow's own getters, and equals the row that
 * was written. The container asserts how many values were compared, per type and null.
 */
public class ArrowRowViewProperties {
    private static final int MAX_DEPTH = 3;
    private static final AtomicLong ROWS = new AtomicLong();
    private static final Map<LogicalTypeRoot, AtomicLong> VALUES = new EnumMap<>(LogicalTypeRoot.class);
    private static final AtomicLong NULLS = new AtomicLong();

    @Property(tries = 600, edgeCases = EdgeCasesMode.NONE, shrinking = ShrinkingMode.BOUNDED)
    void everyValueReadsAsWritten(@ForAll("types") RowType type, @ForAll long seed,
            @ForAll("rowCounts") int rowCount) {
        RandomValues random = new RandomValues(seed, true);
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < rowCount; i++) {
            rows.add(random.row(type));
        }
        ArrowRowView view = new ArrowRowView(type);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            rows.forEach(writer::write);
            VectorSchemaRoot batch = writer.finish();
            view.bind(batch);
            assertThat(view.rowCount()).isEqualTo(rowCount);
            for (int i = 0; i < rowCount; i++) {
                List<Object> read = PlainValues.fromFlink(view.row(i), type);
                assertThat(read).as("row %d vs Arrow's getters, type %s", i, type.asSummaryString())
                        .isEqualTo(PlainValues.fromArrow(batch.getFieldVectors(), type, i));
                assertThat(read).as("row %d vs the row written", i)
                        .isEqualTo(PlainValues.fromFlink(rows.get(i), type));
                count(read, type);
                ROWS.incrementAndGet();
            }
        }
    }

    @AfterContainer
    static void enoughWasCompared() {
        assertThat(ROWS.get()).as("rows compared").isGreaterThanOrEqualTo(2_000);
        assertThat(NULLS.get()).as("nulls compared").isGreaterThanOrEqualTo(1_000);
        for (LogicalTypeRoot root : List.of(LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.TINYINT,
                LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT, LogicalTypeRoot.FLOAT,
                LogicalTypeRoot.DOUBLE, LogicalTypeRoot.DECIMAL, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
                LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY, LogicalTypeRoot.DATE,
                LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
                LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE, LogicalTypeRoot.ARRAY, LogicalTypeRoot.ROW,
                LogicalTypeRoot.MAP, LogicalTypeRoot.MULTISET)) {
            assertThat(VALUES.getOrDefault(root, new AtomicLong()).get())
                    .as("non-null %s values compared", root).isGreaterThanOrEqualTo(50);
        }
    }

    /** Counts the non-null values (by type, nested ones too) and the nulls of one compared row. */
    private static void count(List<Object> row, RowType type) {
        for (int i = 0; i < row.size(); i++) {
            count(row.get(i), type.getTypeAt(i));
        }
    }

    @SuppressWarnings("unchecked")
    private static void count(Object value, LogicalType type) {
        if (value == null) {
            NULLS.incrementAndGet();
            return;
        }
        synchronized (VALUES) {
            VALUES.computeIfAbsent(type.getTypeRoot(), r -> new AtomicLong()).incrementAndGet();
        }
        switch (type.getTypeRoot()) {
            case ARRAY:
                for (Object element : (List<Object>) value) {
                    count(element, ((ArrayType) type).getElementType());
                }
                break;
            case ROW:
                count((List<Object>) value, (RowType) type);
                break;
            case MAP:
            case MULTISET:
                LogicalType keyType = type instanceof MapType m ? m.getKeyType() : ((MultisetType) type).getElementType();
                LogicalType valueType = type instanceof MapType m ? m.getValueType() : new IntType(false);
                for (Object entry : (List<Object>) value) {
                    count(((List<Object>) entry).get(0), keyType);
                    count(((List<Object>) entry).get(1), valueType);
                }
                break;
            default:
                break;
        }
    }

    @Provide
    Arbitrary<Integer> rowCounts() {
        return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0)), Tuple.of(1, Arbitraries.just(1)),
                Tuple.of(8, Arbitraries.integers().between(2, 40)));
    }

    @Provide
    Arbitrary<RowType> types() {
        return rowType(MAX_DEPTH, false);
    }

    private static Arbitrary<RowType> rowType(int depth, boolean nullable) {
        return type(depth).list().ofMinSize(1).ofMaxSize(depth == MAX_DEPTH ? 8 : 3).map(types -> {
            List<RowType.RowField> fields = new ArrayList<>();
            for (int i = 0; i < types.size(); i++) {
                fields.add(new RowType.RowField("f" + i, types.get(i)));
            }
            return new RowType(nullable, fields);
        });
    }

    /**
     * Any type of the layout down to {@code depth} levels of nesting (also for other modules' properties). Map keys
     * are strings: {@link RandomValues} draws them from the string edge values.
     */
    public static Arbitrary<LogicalType> type(int depth) {
        Arbitrary<LogicalType> shape = depth == 0 ? scalarType() : Arbitraries.frequencyOf(
                Tuple.of(6, scalarType()),
                Tuple.of(2, Arbitraries.lazy(() -> type(depth - 1)).map(e -> (LogicalType) new ArrayType(e))),
                Tuple.of(2, Arbitraries.lazy(() -> rowType(depth - 1, true)).map(r -> (LogicalType) r)),
                Tuple.of(2, Arbitraries.lazy(() -> type(depth - 1))
                        .map(v -> (LogicalType) new MapType(new VarCharType(VarCharType.MAX_LENGTH), v))),
                Tuple.of(1, Arbitraries.just(new MultisetType(new VarCharType(VarCharType.MAX_LENGTH)))));
        return Combinators.combine(shape, Arbitraries.frequency(Tuple.of(4, true), Tuple.of(1, false)))
                .as((t, nullable) -> t.copy(nullable));
    }

    public static Arbitrary<LogicalType> scalarType() {
        Arbitrary<Integer> precision9 = Arbitraries.integers().between(0, 9);
        Arbitrary<LogicalType> decimal = Arbitraries.integers().between(1, 38).flatMap(p ->
                Arbitraries.integers().between(0, p).map(s -> (LogicalType) new DecimalType(p, s)));
        return Arbitraries.oneOf(List.of(
                Arbitraries.of(new BooleanType(), new TinyIntType(), new SmallIntType(), new IntType(),
                        new BigIntType(), new FloatType(), new DoubleType(), new CharType(3),
                        new VarCharType(VarCharType.MAX_LENGTH), new BinaryType(2),
                        new VarBinaryType(VarBinaryType.MAX_LENGTH), new DateType(), new DecimalType(38, 0),
                        new DecimalType(38, 38), new DecimalType(18, 2)),
                decimal,
                precision9.map(p -> (LogicalType) new TimeType(Math.min(p, 3))),
                precision9.map(p -> (LogicalType) new TimestampType(p)),
                precision9.map(p -> (LogicalType) new LocalZonedTimestampType(p))));
    }
}
