package io.columnarkafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * A batch whose encoded records would pass the slab's limit (the largest Java array, about 2 GiB) fails before any
 * record of it is handed out, naming the row that crossed the limit, the bytes needed and the limit. The limit is
 * set to 64 KiB here through {@link RecordSlab#RecordSlab(int)}, so the check runs on the same code path without
 * allocating 2 GiB; the encode loop is {@link RowByRowBatchEncoder}'s, which every row-by-row format shares, and
 * every writer reserves its bytes through {@link ByteOutput#ensure(int)}, where the limit is enforced.
 */
class BatchTooLargeTest {
    private static final RowType ROW_TYPE = RowTypes.parse("ROW<name STRING>");
    private static final int LIMIT = 64 << 10;
    private static final int VALUE_BYTES = 5_000;

    @Test
    void aBatchPastTheLimitFailsNamingTheRowAndTheLimitAndHandsOutNothing() {
        try (BufferAllocator allocator = new RootAllocator()) {
            ValueEncoder encoder = new ValueEncoder(LIMIT);
            try (VectorSchemaRoot large = batch(allocator, 20, VALUE_BYTES)) {
                // 13 values take 65,000 bytes; the 14th (row 13) would need 70,000, past 65,536.
                assertThatThrownBy(() -> encoder.encode(large))
                        .isInstanceOf(BatchTooLargeException.class)
                        .hasMessage("row 13: the encoded batch needs 70000 bytes, more than the slab's limit of"
                                + " 65536 bytes (one Java array); send smaller Arrow batches")
                        .satisfies(e -> assertThat(((BatchTooLargeException) e).row()).isEqualTo(13));
            }
            // Nothing of the failed batch remains: the next batch's records are its own only.
            try (VectorSchemaRoot small = batch(allocator, 3, 10)) {
                RecordSlab slab = encoder.encode(small);
                assertThat(slab.recordCount()).isEqualTo(3);
                assertThat(slab.size()).isEqualTo(30);
                assertThat(new String(slab.copyRecord(2), StandardCharsets.UTF_8)).isEqualTo("2".repeat(10));
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aSelectionNamesTheBatchRowNotItsPositionInTheSelection() {
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot large = batch(allocator, 30, VALUE_BYTES)) {
            int[] evenRows = new int[15];
            Arrays.setAll(evenRows, i -> 2 * i);
            assertThatThrownBy(() -> new ValueEncoder(LIMIT).encode(large, evenRows, evenRows.length))
                    .isInstanceOf(BatchTooLargeException.class)
                    .hasMessageStartingWith("row 26: ");
        }
    }

    @Test
    void theDefaultLimitIsTheLargestJavaArrayAndALimitOutsideItsRangeIsRefused() {
        assertThat(new RecordSlab().maxCapacity()).isEqualTo(Integer.MAX_VALUE - 16);
        assertThatThrownBy(() -> new RecordSlab(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Integer.toString(Integer.MAX_VALUE));
    }

    /** {@code rows} rows whose value at row i is {@code bytes} times the last digit of i. */
    private static VectorSchemaRoot batch(BufferAllocator allocator, int rows, int bytes) {
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(ROW_TYPE), allocator);
        VarCharVector name = (VarCharVector) root.getVector(0);
        for (int i = 0; i < rows; i++) {
            name.setSafe(i, Integer.toString(i % 10).repeat(bytes).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(rows);
        return root;
    }

    /** Writes each row's string bytes as its record, through the shared row-by-row loop. */
    private static final class ValueEncoder extends RowByRowBatchEncoder {
        private VarCharVector values;

        ValueEncoder(int maxBatchBytes) {
            super(Projection.all(ROW_TYPE), maxBatchBytes);
        }

        @Override
        protected void bindColumn(int field, FieldVector vector, int rows) {
            values = (VarCharVector) vector;
        }

        @Override
        protected long estimateBytes(long arrowBytes, int rows) {
            return 0;
        }

        @Override
        protected void writeRecord(ByteOutput out, int row) {
            byte[] value = values.get(row);
            out.ensure(value.length);
            System.arraycopy(value, 0, out.buf, out.pos, value.length);
            out.pos += value.length;
        }
    }
}
