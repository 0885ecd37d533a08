package io.columnarkafka.format.arrow;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;

/**
 * Transposes Flink rows in internal format ({@code GenericRowData}, {@code BinaryRowData}, ... holding
 * {@code StringData}, {@code DecimalData}, {@code TimestampData}, {@code ArrayData}, {@code MapData},
 * nested {@code RowData}, int days for DATE, int milliseconds for TIME, {@code byte[]} for BINARY) into an
 * Arrow batch of the {@link ArrowLayout} schema of the row type.
 *
 * <p>Use: {@link #write} rows, {@link #finish} to get the batch, {@link #reset} to start the next batch in
 * the same buffers, {@link #close} to free them. Writers are planned once per column, so a row costs no
 * type dispatch and no objects beyond what the {@code RowData} getters themselves create: {@link
 * RowTranspose} writes the top-level columns, a {@code BinaryRowData} in one heap segment straight from
 * the row's memory, any other row through its typed getters. Not thread-safe.
 *
 * <p>Arrow has no row kind. A writer built with a row-kind column ({@link #RowDataArrowWriter(RowType,
 * String, BufferAllocator)}) adds it as a last TINYINT column holding each row's {@code
 * RowKind.toByteValue()}, the column the changelog JSON formats' {@code row-kind.column} option reads.
 */
public final class RowDataArrowWriter implements AutoCloseable {
    private final VectorSchemaRoot root;
    private final FieldWriter<?>[] writers;
    private final List<String> names;
    /** The row-kind column, or null. */
    private final TinyIntVector rowKinds;
    /** The planned transpose of the top-level columns; null where it cannot be used (a big-endian machine). */
    private final RowTranspose planned;
    private int rowCount;
    /** Rows of this batch that {@link #planned} read straight from {@code BinaryRowData} memory. */
    private int directRowCount;
    /** Rows of this batch written through every column's {@link FieldWriter}, outside the plan. */
    private int unplannedRowCount;
    /** Set when a row failed half-way: its slot holds partial values until {@link #reset}. */
    private boolean failed;

    public RowDataArrowWriter(RowType rowType, BufferAllocator allocator) {
        this(rowType, null, allocator);
    }

    /**
     * A writer whose batches are {@code rowType} plus, if {@code rowKindColumn} is not null, a last column
     * of that name ({@link #withRowKindColumn}) holding each row's kind.
     */
    public RowDataArrowWriter(RowType rowType, String rowKindColumn, BufferAllocator allocator) {
        this(rowType, rowKindColumn, ArrowLayout.NanoTimestamps.ARROW_NANOSECOND, allocator);
    }

    /**
     * As {@link #RowDataArrowWriter(RowType, String, BufferAllocator)}, carrying TIMESTAMP and TIMESTAMP_LTZ
     * values as {@code nanos} says: {@link ArrowLayout.NanoTimestamps#EPOCH_MILLIS_AND_NANOS} takes every value
     * of Flink's range at precision 7–9 (Arrow's nanoseconds reject those outside 1677..2262), {@link
     * ArrowLayout.NanoTimestamps#EVERY_PRECISION_MILLIS_AND_NANOS} every digit a row holds at any precision.
     */
    public RowDataArrowWriter(RowType rowType, String rowKindColumn, ArrowLayout.NanoTimestamps nanos,
            BufferAllocator allocator) {
        RowType batchType = rowKindColumn == null ? rowType : withRowKindColumn(rowType, rowKindColumn);
        VectorSchemaRoot created = VectorSchemaRoot.create(ArrowLayout.schema(batchType, nanos), allocator);
        try {
            created.allocateNew();
            List<FieldVector> vectors = created.getFieldVectors();
            this.names = rowType.getFieldNames();
            this.writers = new FieldWriter<?>[rowType.getFieldCount()];
            for (int i = 0; i < writers.length; i++) {
                writers[i] = FieldWriter.of(names.get(i), rowType.getTypeAt(i), vectors.get(i));
            }
            this.rowKinds = rowKindColumn == null ? null : (TinyIntVector) vectors.get(writers.length);
            this.planned = RowTranspose.plan(rowType, writers, vectors);
        } catch (RuntimeException | Error e) {
            created.close();
            throw e;
        }
        this.root = created;
    }

    /**
     * {@code rowType} plus a last nullable TINYINT column {@code rowKindColumn}.
     *
     * @throws IllegalArgumentException if {@code rowType} already has a column of that name
     */
    public static RowType withRowKindColumn(RowType rowType, String rowKindColumn) {
        if (rowType.getFieldNames().contains(rowKindColumn)) {
            throw new IllegalArgumentException(
                    "row-kind column '" + rowKindColumn + "' clashes with a column of " + rowType.asSummaryString());
        }
        List<RowType.RowField> fields = new ArrayList<>(rowType.getFields());
        fields.add(new RowType.RowField(rowKindColumn, new TinyIntType()));
        return new RowType(rowType.isNullable(), fields);
    }

    /**
     * Appends one row.
     *
     * @throws IllegalArgumentException naming the column and the row if a value has no Arrow
     *     representation (in the Arrow nanosecond layout, a timestamp outside its 64-bit range) or is not of the column's
     *     internal data type; the row is not added and the writer refuses further rows until {@link #reset}
     */
    public void write(RowData row) {
        checkUsable();
        try {
            if (planned != null && row instanceof BinaryRowData binaryRow && planned.writeBinary(binaryRow, rowCount)) {
                directRowCount++;
            } else if (planned == null || !planned.writeGetters(row, rowCount)) {
                writeFields(row);
            }
        } catch (RowTranspose.FieldException e) {
            throw fieldFailed(e.column, e.getCause());
        }
        if (rowKinds != null) {
            rowKinds.setSafe(rowCount, row.getRowKind().toByteValue());
        }
        rowCount++;
    }

    /** Through each column's {@link FieldWriter}, for a row the plan does not read (another arity). */
    private void writeFields(RowData row) {
        if (planned != null) {
            planned.invalidate();
        }
        unplannedRowCount++;
        int field = 0;
        try {
            for (; field < writers.length; field++) {
                writers[field].write(row, field, rowCount);
            }
        } catch (RuntimeException e) {
            throw fieldFailed(field, e);
        }
    }

    /** Marks the writer failed (a row is half written) and names the column and the row. */
    private IllegalArgumentException fieldFailed(int field, Throwable cause) {
        failed = true;
        return new IllegalArgumentException(
                "column '" + names.get(field) + "', row " + rowCount + ": " + cause.getMessage(), cause);
    }

    /** Number of rows written since the last {@link #reset}. */
    public int rowCount() {
        return rowCount;
    }

    /**
     * Number of rows written since the last {@link #reset} whose fields were read straight from {@code
     * BinaryRowData} memory rather than through the {@code RowData} getters.
     */
    public int directRowCount() {
        return directRowCount;
    }

    /**
     * Number of rows written since the last {@link #reset} outside the planned transpose, through each
     * column's writer (a row whose arity differs from the row type's, or any row on a big-endian machine).
     */
    public int unplannedRowCount() {
        return unplannedRowCount;
    }

    /**
     * Sets the value counts of every vector and returns the batch. The root stays owned by this writer:
     * it is valid until the next {@link #write}, {@link #reset} or {@link #close}.
     */
    public VectorSchemaRoot finish() {
        checkUsable();
        root.setRowCount(rowCount);
        return root;
    }

    /** Empties the batch for the next one, keeping the allocated buffers. */
    public void reset() {
        for (FieldVector vector : root.getFieldVectors()) {
            vector.reset();
        }
        root.setRowCount(0);
        if (planned != null) {
            planned.invalidate();
        }
        rowCount = 0;
        directRowCount = 0;
        unplannedRowCount = 0;
        failed = false;
    }

    /** Frees all Arrow buffers of the batch. */
    @Override
    public void close() {
        root.close();
    }

    private void checkUsable() {
        if (failed) {
            throw new IllegalStateException("a row failed to write; call reset() before writing or finishing");
        }
    }
}
