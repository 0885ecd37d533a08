package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Flink's internal {@code HASH_CODE} of an INT or BIGINT, the bucket of the split distinct aggregate's partial phase
 * ({@code MOD(HASH_CODE(col), bucket-num)}). Flink 2.2.1's {@code HashCodeCallGen} calls {@code
 * CodeGenUtils.hashCodeForType} if the operand is not null (else null): {@code Integer.hashCode(v)}, the value
 * itself, for an INT; {@code Long.hashCode(v)}, {@code (int) (v ^ (v >>> 32))}, for a BIGINT.
 */
final class HashCode extends UnaryNode {
    private final boolean bigint;

    HashCode(Node operand, LogicalType type) {
        super(operand, type);
        this.bigint = operand.type.getTypeRoot() == LogicalTypeRoot.BIGINT;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            if (!in.nulls[i]) {
                long v = in.longs[i];
                out.longs[i] = bigint ? Long.hashCode(v) : (int) v;
            }
        }
    }
}
