package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * CASE WHEN c1 THEN v1 ... ELSE e: each condition is evaluated for the rows no earlier condition took
 * (a NULL condition does not take a row), each branch only for the rows it takes, as Flink's generated
 * if/else chain does.
 */
final class CaseWhen extends Node {
    private final Node[] conditions;
    private final Node[] branches;
    private final Node otherwise;
    private final Selection remaining = new Selection();
    private final Selection next = new Selection();
    private final Selection taken = new Selection();

    CaseWhen(Node[] conditions, Node[] branches, Node otherwise, LogicalType type) {
        super(type);
        this.conditions = conditions;
        this.branches = branches;
        this.otherwise = otherwise;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        remaining.reset(n);
        for (int k = 0; k < n; k++) {
            remaining.add(sel[k]);
        }
        Selection rest = remaining;
        Selection spare = next;
        for (int w = 0; w < conditions.length && rest.count > 0; w++) {
            Node condition = conditions[w];
            condition.evaluate(batch, rest.rows, rest.count);
            taken.reset(rest.count);
            spare.reset(rest.count);
            for (int k = 0; k < rest.count; k++) {
                int i = rest.rows[k];
                if (!condition.out.nulls[i] && condition.out.longs[i] != 0) {
                    taken.add(i);
                } else {
                    spare.add(i);
                }
            }
            take(batch, branches[w], taken);
            Selection swap = rest;
            rest = spare;
            spare = swap;
        }
        take(batch, otherwise, rest);
    }

    private void take(InputBatch batch, Node branch, Selection rows) {
        if (rows.count == 0) {
            return;
        }
        branch.evaluate(batch, rows.rows, rows.count);
        for (int k = 0; k < rows.count; k++) {
            out.copyRow(branch.out, rows.rows[k]);
        }
    }
}
