package io.columnarkafka.flink.sink;

/**
 * The rows of an Arrow batch that are written: the first {@code count} rows of {@code selection}, or, when
 * {@code selection} is null, the first {@code count} rows of the batch (all of them).
 */
public record SelectedRows(int[] selection, int count) {

    /** The index in the batch of the {@code i}-th row written. */
    public int row(int i) {
        return selection == null ? i : selection[i];
    }
}
