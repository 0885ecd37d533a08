package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * AND and OR over two or more BOOLEAN operands with SQL's three-valued logic, folded left to right as
 * Flink's generated code does: the next operand is evaluated only for rows the result so far does not
 * decide (not FALSE for AND, not TRUE for OR), so an operand that would fail is never run for them.
 */
final class Logic extends Node {
    private final boolean and;
    private final Node[] operands;
    private final Selection undecided = new Selection();

    Logic(Op op, Node[] operands, LogicalType type) {
        super(type);
        this.and = op == Op.AND;
        this.operands = operands;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        long decisive = and ? 0 : 1;
        Node first = operands[0];
        first.evaluate(batch, sel, n);
        undecided.reset(n);
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            boolean isNull = first.out.nulls[i];
            long value = first.out.longs[i];
            nulls[i] = isNull;
            result[i] = value;
            if (isNull || value != decisive) {
                undecided.add(i);
            }
        }
        for (int o = 1; o < operands.length; o++) {
            Node next = operands[o];
            next.evaluate(batch, undecided.rows, undecided.count);
            boolean[] nextNulls = next.out.nulls;
            long[] nextValues = next.out.longs;
            // a row stays undecided for the next operand unless this one decides it: the list shrinks in place
            int kept = 0;
            for (int k = 0; k < undecided.count; k++) {
                int i = undecided.rows[k];
                if (!nextNulls[i] && nextValues[i] == decisive) {
                    nulls[i] = false;
                    result[i] = decisive;
                } else {
                    if (nextNulls[i]) {
                        nulls[i] = true;
                    }
                    // otherwise the operand is the neutral value: the result so far stands
                    undecided.rows[kept++] = i;
                }
            }
            undecided.count = kept;
        }
    }
}
