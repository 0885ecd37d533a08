package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/** CHAR_LENGTH as {@code BinaryStringData#numChars}: code points, a non-BMP character counting one. */
final class CharLength extends UnaryNode {
    CharLength(Node operand, LogicalType type) {
        super(operand, type);
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            if (!in.nulls[i]) {
                out.longs[i] = Utf8.numChars(in.bytes, in.starts[i], in.lengths[i]);
            }
        }
    }
}
