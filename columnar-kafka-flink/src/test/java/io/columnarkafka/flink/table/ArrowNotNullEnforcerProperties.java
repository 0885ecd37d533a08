package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.flink.sink.SelectedRows;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@link ArrowNotNullEnforcer} against Flink's own enforcer on rows: random batches of a table with three NOT NULL
 * columns among five (nulls in any column, often none in a batch), a random selection of the rows written. Under
 * DROP the rows kept are the rows of the selection Flink's enforcer returns; under ERROR the batch fails exactly when
 * Flink's enforcer fails on one of them, with the message Flink gives for the first.
 */
class ArrowNotNullEnforcerProperties {
    private static final RowType TYPE = (RowType) DataTypes.ROW(
            DataTypes.FIELD("a", DataTypes.BIGINT().notNull()),
            DataTypes.FIELD("b", DataTypes.STRING()),
            DataTypes.FIELD("c", DataTypes.STRING().notNull()),
            DataTypes.FIELD("d", DataTypes.BIGINT()),
            DataTypes.FIELD("e", DataTypes.BIGINT().notNull())).notNull().getLogicalType();
    private static final int[] NOT_NULL = {0, 2, 4};
    private static final AtomicInteger ROWS = new AtomicInteger();
    private static final AtomicInteger DROPPED = new AtomicInteger();
    private static final AtomicInteger FAILED = new AtomicInteger();

    @AfterContainer
    static void comparedEnough() {
        assertThat(ROWS.get()).as("rows compared").isGreaterThan(10_000);
        assertThat(DROPPED.get()).as("rows Flink dropped").isGreaterThan(100);
        assertThat(FAILED.get()).as("batches Flink failed").isGreaterThan(50);
    }

    @Property(tries = 300)
    void keepsAndFailsOnTheRowsFlinksEnforcerDoes(@ForAll long seed) {
        Random random = new Random(seed);
        int rowCount = random.nextInt(200);
        double nullChance = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 0.05;
        boolean[][] nulls = new boolean[rowCount][TYPE.getFieldCount()];
        for (boolean[] row : nulls) {
            for (int column = 0; column < row.length; column++) {
                row[column] = random.nextDouble() < nullChance;
            }
        }
        int[] selection = random.nextBoolean() ? null
                : IntStream.range(0, rowCount).filter(i -> random.nextInt(3) > 0).toArray();
        SelectedRows rows = new SelectedRows(selection, selection == null ? rowCount : selection.length);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(TYPE), allocator)) {
            fill(root, nulls);
            for (ExecutionConfigOptions.NotNullEnforcer strategy : ExecutionConfigOptions.NotNullEnforcer.values()) {
                ConstraintEnforcerExecutor flink = ConstraintEnforcerExecutor.create(TYPE, strategy,
                        ExecutionConfigOptions.TypeLengthEnforcer.IGNORE,
                        ExecutionConfigOptions.NestedEnforcer.IGNORE).orElseThrow();
                compare(new ArrowNotNullEnforcer(flink, NOT_NULL), flink, root, rows, nulls);
            }
        }
        ROWS.addAndGet(rows.count());
    }

    private static void compare(ArrowNotNullEnforcer enforcer, ConstraintEnforcerExecutor flink, VectorSchemaRoot root,
            SelectedRows rows, boolean[][] nulls) {
        List<Integer> expected = new ArrayList<>();
        Throwable expectedFailure = null;
        for (int i = 0; i < rows.count() && expectedFailure == null; i++) {
            int row = rows.row(i);
            Throwable thrown = catchThrowable(() -> {
                if (flink.enforce(rowOf(nulls[row], row)) != null) {
                    expected.add(row);
                }
            });
            expectedFailure = thrown;
        }
        Throwable actualFailure = catchThrowable(() -> {
            SelectedRows kept = enforcer.apply(root, rows);
            List<Integer> actual = new ArrayList<>();
            for (int i = 0; i < kept.count(); i++) {
                actual.add(kept.row(i));
            }
            assertThat(actual).isEqualTo(expected);
            DROPPED.addAndGet(rows.count() - kept.count());
        });
        if (expectedFailure == null) {
            assertThat(actualFailure).isNull();
        } else {
            assertThat(actualFailure).isNotNull().hasSameClassAs(expectedFailure)
                    .hasMessage(expectedFailure.getMessage());
            FAILED.incrementAndGet();
        }
    }

    /** The row as Flink's sink node would hand it: real values, nulls where the batch has them. */
    private static RowData rowOf(boolean[] nulls, int row) {
        return GenericRowData.of(nulls[0] ? null : (long) row, nulls[1] ? null : StringData.fromString("b" + row),
                nulls[2] ? null : StringData.fromString("c" + row), nulls[3] ? null : (long) -row,
                nulls[4] ? null : Long.MAX_VALUE - row);
    }

    private static void fill(VectorSchemaRoot root, boolean[][] nulls) {
        root.allocateNew();
        for (int row = 0; row < nulls.length; row++) {
            setLong((BigIntVector) root.getVector(0), row, nulls[row][0], row);
            setString((VarCharVector) root.getVector(1), row, nulls[row][1], "b" + row);
            setString((VarCharVector) root.getVector(2), row, nulls[row][2], "c" + row);
            setLong((BigIntVector) root.getVector(3), row, nulls[row][3], -row);
            setLong((BigIntVector) root.getVector(4), row, nulls[row][4], Long.MAX_VALUE - row);
        }
        root.setRowCount(nulls.length);
    }

    private static void setLong(BigIntVector vector, int row, boolean isNull, long value) {
        if (isNull) {
            vector.setNull(row);
        } else {
            vector.setSafe(row, value);
        }
    }

    private static void setString(VarCharVector vector, int row, boolean isNull, String value) {
        if (isNull) {
            vector.setNull(row);
        } else {
            vector.setSafe(row, value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}
