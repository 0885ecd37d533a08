package io.columnarkafka.flink.calc.eval;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The input batch a plan is evaluating. */
final class InputBatch {
    private VectorSchemaRoot root;
    private int rowCount;
    /** Counts bound batches, so a node can tell whether it already holds this batch's values. */
    private long generation;

    void bind(VectorSchemaRoot root) {
        this.root = root;
        this.rowCount = root.getRowCount();
        generation++;
    }

    long generation() {
        return generation;
    }

    int rowCount() {
        return rowCount;
    }

    FieldVector column(int index) {
        return root.getVector(index);
    }
}
