package io.columnarkafka.flink.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/** Copies the selected rows of a root into new vectors, where a reader cannot take a selection. */
public final class Selections {
    private Selections() {}

    /**
     * A new root holding rows {@code selection[0..count)} of {@code root}, in the allocator of each source
     * vector. The caller owns the result; {@code root} is left as it was.
     */
    public static VectorSchemaRoot compact(VectorSchemaRoot root, int[] selection, int count) {
        List<FieldVector> copies = new ArrayList<>(root.getFieldVectors().size());
        try {
            for (FieldVector source : root.getFieldVectors()) {
                FieldVector target = source.getField().createVector(source.getAllocator());
                copies.add(target);
                target.setInitialCapacity(count);
                target.allocateNew();
                // Arrow's generic per-value copy: a shuffle edge after a filter, not a per-row hot path.
                TransferPair pair = source.makeTransferPair(target);
                for (int i = 0; i < count; i++) {
                    pair.copyValueSafe(selection[i], i);
                }
                target.setValueCount(count);
            }
            return new VectorSchemaRoot(root.getSchema().getFields(), copies, count);
        } catch (RuntimeException e) {
            try {
                AutoCloseables.close(copies);
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
