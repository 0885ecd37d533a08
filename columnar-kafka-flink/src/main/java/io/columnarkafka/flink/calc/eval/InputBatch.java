package io.columnarkafka.flink.calc.eval;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The input batch a plan is evaluating. */
final class InputBatch {
    private VectorSchemaRoot root;
    private int rowCount;

    void bind(VectorSchemaRoot root) {
        this.root = root;
        this.rowCount = root.getRowCount();
    }

    int rowCount() {
        return rowCount;
    }

    FieldVector column(int index) {
        return root.getVector(index);
    }
}
