package io.columnarkafka.flink.expand;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * An {@link ExpandSpec} on Arrow batches: one output batch per input batch, holding, for each selected input row in
 * order, one row per projection in order: row {@code k * P + p} is projection {@code p} of the {@code k}-th selected
 * input row. That is the order in which Flink's generated Expand operator ({@code ExpandCodeGenerator}) emits them, so
 * every consumer sees Flink's rows in Flink's order: a downstream mini-batch bundle ends at the same row.
 *
 * <p>Each output column is built once per batch: an input column's values are copied row by row ({@code
 * copyFromSafe}, the vector's own copy, nulls included) into a vector of the input's Arrow type (a nullable one: a
 * projection may null it), a NULL leaves the slot null, a constant is set. No value is boxed.
 *
 * <p><b>Memory.</b> Output vectors and opened wire batches live in the allocator given to the constructor; the input
 * batch is closed once copied.
 */
public final class ColumnarExpand {
    private static final int COPY = 0;
    private static final int NULL = 1;
    private static final int CONSTANT = 2;

    private final ExpandSpec spec;
    private final BufferAllocator allocator;
    private final int projections;
    /** Per output column: the input column it copies, or -1. */
    private final int[] source;
    /** Per output column, per projection: {@link #COPY}, {@link #NULL} or {@link #CONSTANT}. */
    private final int[][] kind;
    /** Per output column, per projection: the constant, where {@link #kind} is {@link #CONSTANT}. */
    private final long[][] constant;
    private final String[] names;
    /** Per output column that copies no input column, its field ({@link ArrowLayout}); null for the others. */
    private final Field[] constantFields;

    public ColumnarExpand(ExpandSpec spec, BufferAllocator allocator) {
        this.spec = spec;
        this.allocator = allocator;
        this.projections = spec.projections().size();
        int columns = spec.output().getFieldCount();
        this.source = new int[columns];
        this.kind = new int[columns][projections];
        this.constant = new long[columns][projections];
        this.names = spec.output().getFieldNames().toArray(new String[0]);
        this.constantFields = new Field[columns];
        for (int c = 0; c < columns; c++) {
            source[c] = spec.sourceOf(c);
            if (source[c] < 0) {
                constantFields[c] = ArrowLayout.field(names[c], spec.output().getTypeAt(c));
            }
            for (int p = 0; p < projections; p++) {
                ExpandSpec.Value value = spec.projections().get(p).get(c);
                if (value instanceof ExpandSpec.Constant k) {
                    kind[c][p] = CONSTANT;
                    constant[c][p] = k.value();
                } else {
                    kind[c][p] = value instanceof ExpandSpec.Null ? NULL : COPY;
                }
            }
        }
    }

    /**
     * Consumes {@code input} (closes it, also when expanding fails) and returns its expansion, or null when the
     * input has no selected row.
     */
    public ArrowBatch apply(ArrowBatch input) {
        List<FieldVector> vectors = new ArrayList<>(source.length);
        try (input) {
            VectorSchemaRoot root = input.open(allocator);
            ArrowLayout.check(spec.input(), root);
            int[] selection = input.selection();
            int selected = selection == null ? root.getRowCount() : input.selectedCount(allocator);
            if (selected == 0) {
                return null;
            }
            long rows = (long) selected * projections;
            if (rows > Integer.MAX_VALUE) {
                throw new IllegalStateException(selected + " rows expand to " + rows + " rows, more than a batch holds");
            }
            for (int c = 0; c < source.length; c++) {
                FieldVector from = source[c] >= 0 ? root.getVector(source[c]) : null;
                FieldVector vector = (from == null ? constantFields[c] : copyField(c, from)).createVector(allocator);
                vectors.add(vector);
                if (from == null) {
                    fillConstants(c, vector, selected);
                } else {
                    fillCopies(c, vector, from, selection, selected);
                }
                vector.setValueCount((int) rows);
            }
            List<Field> fields = new ArrayList<>(vectors.size());
            for (FieldVector vector : vectors) {
                fields.add(vector.getField());
            }
            return ArrowBatch.of(new VectorSchemaRoot(fields, vectors, (int) rows), null);
        } catch (RuntimeException | Error e) {
            try {
                AutoCloseables.close(vectors);
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A nullable field of the input's Arrow type (a projection may null it), named as output column {@code c}. */
    private Field copyField(int c, FieldVector from) {
        Field field = from.getField();
        return new Field(names[c], new FieldType(true, field.getType(), field.getDictionary(), field.getMetadata()),
                field.getChildren());
    }

    /** Output column {@code c}: the input vector's values where a projection copies them, else null. */
    private void fillCopies(int c, FieldVector to, FieldVector from, int[] selection, int selected) {
        int[] kinds = kind[c];
        int copies = 0;
        for (int k : kinds) {
            copies += k == COPY ? 1 : 0;
        }
        int rows = selected * projections;
        if (to instanceof BaseVariableWidthVector strings && from instanceof BaseVariableWidthVector in) {
            long bytes = 0;
            for (int k = 0; k < selected; k++) {
                int i = selection == null ? k : selection[k];
                bytes += in.isNull(i) ? 0 : in.getValueLength(i);
            }
            strings.allocateNew(Math.max(1, bytes * copies), rows);
        } else {
            to.setInitialCapacity(rows);
            to.allocateNew();
        }
        int j = 0;
        for (int k = 0; k < selected; k++) {
            int i = selection == null ? k : selection[k];
            for (int p = 0; p < projections; p++, j++) {
                if (kinds[p] == COPY) {
                    to.copyFromSafe(i, j, from);
                } else {
                    to.setNull(j);
                }
            }
        }
    }

    /** Output column {@code c}, which copies no input column: its constants, else null. */
    private void fillConstants(int c, FieldVector to, int selected) {
        to.setInitialCapacity(selected * projections);
        to.allocateNew();
        long[] values = constant[c];
        int[] kinds = kind[c];
        BigIntVector longs = to instanceof BigIntVector v ? v : null;
        IntVector ints = to instanceof IntVector v ? v : null;
        int j = 0;
        for (int k = 0; k < selected; k++) {
            for (int p = 0; p < projections; p++, j++) {
                if (kinds[p] != CONSTANT) {
                    to.setNull(j);
                } else if (longs != null) {
                    longs.set(j, values[p]);
                } else {
                    ints.set(j, (int) values[p]);
                }
            }
        }
    }

    /** The spec this expand computes. */
    public ExpandSpec spec() {
        return spec;
    }
}
