package io.columnarkafka.flink.calc.eval;

/** A reusable list of row positions: the rows an operand is evaluated for. */
final class Selection {
    int[] rows = new int[0];
    int count;

    /** Empties the list, making room for {@code capacity} rows. */
    Selection reset(int capacity) {
        if (rows.length < capacity) {
            rows = new int[Math.max(capacity, rows.length * 2)];
        }
        count = 0;
        return this;
    }

    void add(int row) {
        rows[count++] = row;
    }
}
