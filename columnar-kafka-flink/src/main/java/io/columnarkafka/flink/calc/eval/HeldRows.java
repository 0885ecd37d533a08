package io.columnarkafka.flink.calc.eval;

/**
 * The rows of the current batch a shared node already holds its values for. A node that more than one expression
 * reads (a common sub-expression, {@link Compiler}) is asked for its values several times per batch, each time for
 * the rows that reader would evaluate it for; it computes only the rows no earlier reader asked for. Every row is
 * thus computed at most once and only where some reader evaluates it, as Flink's generated code does for each
 * reader on its own: a value that can fail (a division by zero, a CAST that does not parse) fails for exactly the
 * rows it fails for there.
 */
final class HeldRows {
    /** Per row, the generation of the batch whose value the node holds for it (generations start at 1). */
    private long[] heldIn = new long[0];
    private long generation;
    private final Selection missing = new Selection();

    /** True when no row of {@code batch} is held yet: the node's column starts afresh for it. */
    boolean isNew(InputBatch batch) {
        return generation != batch.generation();
    }

    /** The rows of {@code sel[0..n)} not held for {@code batch}; valid until the next call. */
    Selection missing(InputBatch batch, int[] sel, int n) {
        if (heldIn.length < batch.rowCount()) {
            heldIn = new long[Math.max(batch.rowCount(), heldIn.length * 2)];
        }
        generation = batch.generation();
        missing.reset(n);
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (heldIn[i] != generation) {
                missing.add(i);
            }
        }
        return missing;
    }

    /** Rows {@code rows.rows[0..count)} of the current batch are computed. */
    void hold(Selection rows) {
        for (int k = 0; k < rows.count; k++) {
            heldIn[rows.rows[k]] = generation;
        }
    }
}
