package io.columnarkafka.bench.sink;

import java.io.Serializable;

/**
 * How every Flink variant splits its rows: the source emits batch indexes {@code 0 .. count()-1} and
 * batch {@code b} stands for rows {@code [b * batchSize, min(rows, (b + 1) * batchSize))}, so the
 * stock and the columnar jobs have the same shape and the same rows.
 */
record BatchRange(long rows, int batchSize) implements Serializable {
    long count() {
        return (rows + batchSize - 1) / batchSize;
    }

    long firstRow(long batch) {
        return batch * batchSize;
    }

    int size(long batch) {
        return (int) Math.min(batchSize, rows - firstRow(batch));
    }
}
