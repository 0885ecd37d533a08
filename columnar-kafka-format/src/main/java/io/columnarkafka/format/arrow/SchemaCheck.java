package io.columnarkafka.format.arrow;

import io.columnarkafka.format.BatchLayoutException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@link ArrowLayout#check} for an encoder that sees many batches: the last schema that passed is kept,
 * so a root reused batch after batch (the same {@link Schema} instance) is checked once, and a batch
 * whose schema equals the one that passed costs an equality test instead of a full check, which builds
 * Arrow types and column paths. Schemas are immutable, so a schema that passed keeps passing.
 *
 * <p>Not thread-safe: one per encoder.
 */
public final class SchemaCheck {
    private final RowType rowType;
    private Schema passed;

    public SchemaCheck(RowType rowType) {
        this.rowType = rowType;
    }

    /**
     * Checks that {@code batch} carries the row type.
     *
     * @throws BatchLayoutException as {@link ArrowLayout#check(RowType, VectorSchemaRoot)}
     */
    public void check(VectorSchemaRoot batch) {
        Schema schema = batch.getSchema();
        if (schema == passed) {
            return;
        }
        if (passed == null || !passed.equals(schema)) {
            ArrowLayout.check(rowType, batch);
        }
        // Remember this instance, so the next batch of the same root is an identity hit.
        passed = schema;
    }
}
