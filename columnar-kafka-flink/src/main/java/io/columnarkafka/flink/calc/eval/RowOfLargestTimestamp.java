package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * One TIMESTAMP expression evaluated over whole batches, for the row whose value has the largest millisecond
 * (what Flink's generated watermark code returns for a row: {@code value.getMillisecond()}, or null). Compiled
 * once by the calc's compiler, which admits what it evaluates exactly; per batch one pass over each column the
 * expression reads and one over its values, into arrays reused from batch to batch.
 */
public final class RowOfLargestTimestamp {
    private final List<ColumnLoad> loads;
    private final Node node;
    private final InputBatch batch = new InputBatch();
    private final Selection rows = new Selection();

    private RowOfLargestTimestamp(List<ColumnLoad> loads, Node node) {
        this.loads = loads;
        this.node = node;
    }

    /** Compiles {@code expression} over batches of {@code input}, or says what in it is not evaluated exactly. */
    public static RowOfLargestTimestamp compile(RowType input, Expr expression) throws UnsupportedExpressionException {
        if (!Types.is(expression.type(), LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)) {
            throw new UnsupportedExpressionException("the expression is typed " + Types.name(expression.type())
                    + ", not TIMESTAMP");
        }
        List<ColumnLoad> loads = new ArrayList<>();
        Node node = new Compiler(input).compileReading(expression, loads);
        return new RowOfLargestTimestamp(loads, node);
    }

    /**
     * The first row of {@code root} whose value has the largest millisecond of the batch, or -1 when every value
     * is null (or the batch has no rows).
     */
    public int rowOf(VectorSchemaRoot root) {
        batch.bind(root);
        int count = root.getRowCount();
        rows.reset(count);
        for (int i = 0; i < count; i++) {
            rows.add(i);
        }
        for (ColumnLoad load : loads) {
            load.evaluate(batch, rows.rows, count);
        }
        node.evaluate(batch, rows.rows, count);
        boolean[] nulls = node.out.nulls;
        long[] millis = node.out.longs;
        int best = -1;
        long largest = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            if (!nulls[i] && (best < 0 || millis[i] > largest)) {
                best = i;
                largest = millis[i];
            }
        }
        return best;
    }
}
