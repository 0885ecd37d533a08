package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.SelectedRows;
import java.io.Serializable;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;

/**
 * The constraint enforcer Flink's sink node puts in front of a sink whose only constraint is NOT NULL ({@code
 * ConstraintEnforcer[NotNullEnforcer(fields=[...])]}, {@code table.exec.sink.not-null-enforcer} ERROR or DROP), run
 * on Arrow batches. A batch with no null in its NOT NULL columns (one null count per such column) passes whole. A
 * row with a null in one of them is handed to Flink's own enforcer as a row of its nulls: Flink's code then throws
 * its error (ERROR) or drops the row (DROP), so the message and the choice are Flink's.
 */
final class ArrowNotNullEnforcer implements Serializable {
    private static final long serialVersionUID = 1L;

    private final ConstraintEnforcerExecutor enforcer;
    /** The NOT NULL columns: the top-level fields of the persisted row type Flink's enforcer checks. */
    private final int[] notNullColumns;

    /**
     * @param enforcer Flink's enforcer, holding nothing but its NOT NULL constraint (it reads only whether each field
     *     is null)
     * @param notNullColumns the columns of the batches that are NOT NULL in the sink's schema
     */
    ArrowNotNullEnforcer(ConstraintEnforcerExecutor enforcer, int[] notNullColumns) {
        this.enforcer = enforcer;
        this.notNullColumns = notNullColumns.clone();
    }

    /** The rows Flink's enforcer keeps among {@code rows}; throws Flink's {@code EnforcerException} under ERROR. */
    SelectedRows apply(VectorSchemaRoot root, SelectedRows rows) {
        if (!anyNull(root)) {
            return rows;
        }
        int[] kept = new int[rows.count()];
        int count = 0;
        for (int i = 0; i < rows.count(); i++) {
            int row = rows.row(i);
            if (!nullInNotNullColumn(root, row) || enforcer.enforce(nullsOf(root, row)) != null) {
                kept[count++] = row;
            }
        }
        return count == rows.count() ? rows : new SelectedRows(kept, count);
    }

    private boolean anyNull(VectorSchemaRoot root) {
        for (int column : notNullColumns) {
            if (root.getVector(column).getNullCount() > 0) {
                return true;
            }
        }
        return false;
    }

    private boolean nullInNotNullColumn(VectorSchemaRoot root, int row) {
        for (int column : notNullColumns) {
            if (root.getVector(column).isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /** Row {@code row} as Flink's NOT NULL constraint reads it: null where the batch holds a null, else a value. */
    private static GenericRowData nullsOf(VectorSchemaRoot root, int row) {
        GenericRowData nulls = new GenericRowData(root.getFieldVectors().size());
        for (int column = 0; column < nulls.getArity(); column++) {
            FieldVector vector = root.getVector(column);
            nulls.setField(column, vector.isNull(row) ? null : Boolean.TRUE);
        }
        return nulls;
    }
}
