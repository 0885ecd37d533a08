package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * {@code + - * / %} and unary minus on TINYINT, SMALLINT, INT and BIGINT, as Flink's generated Java: each
 * operand is cast to the result type (except the left operand of {@code %} when the operand types differ,
 * which keeps its own type), the operation runs in Java integer arithmetic (wrapping on overflow), and the
 * result is cast to the result type. Division or remainder by zero throws {@link ArithmeticException}, as
 * the generated code does. Computing in 64 bits and narrowing at the end gives the same bits as Java's
 * 32-bit (or narrower) arithmetic for all five operations.
 */
final class IntegerArithmetic extends Node {
    private final Op op;
    private final Node left;
    private final Node right;
    private final int resultBits;
    private final int leftBits;

    /** {@code right} is null for UNARY_MINUS. */
    IntegerArithmetic(Op op, Node left, Node right, LogicalType type, boolean leftKeepsItsType) {
        super(type);
        this.op = op;
        this.left = left;
        this.right = right;
        this.resultBits = bits(type.getTypeRoot());
        this.leftBits = leftKeepsItsType ? bits(left.type.getTypeRoot()) : resultBits;
    }

    static int bits(LogicalTypeRoot root) {
        switch (root) {
            case TINYINT:
                return 8;
            case SMALLINT:
                return 16;
            case INTEGER:
                return 32;
            case BIGINT:
                return 64;
            default:
                throw new IllegalArgumentException(root + " is not an integer type");
        }
    }

    /** {@code v} cast to a signed integer of {@code bits} bits, as a Java narrowing cast. */
    static long narrow(long v, int bits) {
        int shift = 64 - bits;
        return (v << shift) >> shift;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        left.evaluate(batch, sel, n);
        boolean[] nulls = out.nulls;
        long[] result = out.longs;
        long[] a = left.out.longs;
        boolean[] aNull = left.out.nulls;
        if (right == null) {
            for (int k = 0; k < n; k++) {
                int i = sel[k];
                nulls[i] = aNull[i];
                result[i] = narrow(-a[i], resultBits);
            }
            return;
        }
        right.evaluate(batch, sel, n);
        long[] b = right.out.longs;
        boolean[] bNull = right.out.nulls;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            boolean isNull = aNull[i] || bNull[i];
            nulls[i] = isNull;
            if (isNull) {
                continue;
            }
            long x = narrow(a[i], leftBits);
            long y = narrow(b[i], resultBits);
            long r;
            switch (op) {
                case PLUS:
                    r = x + y;
                    break;
                case MINUS:
                    r = x - y;
                    break;
                case TIMES:
                    r = x * y;
                    break;
                case DIVIDE:
                    r = x / divisor(y);
                    break;
                case MOD:
                    r = x % divisor(y);
                    break;
                default:
                    throw new IllegalStateException(op.name());
            }
            result[i] = narrow(r, resultBits);
        }
    }

    /**
     * Java's error for a zero divisor, thrown here: once the JIT has seen the division throw a few times it may
     * throw a preallocated {@link ArithmeticException} without a message instead (OmitStackTraceInFastThrow),
     * which lost Flink's "/ by zero" from the failure (Flink's generated code is new on every run).
     */
    private static long divisor(long y) {
        if (y == 0) {
            throw new ArithmeticException("/ by zero");
        }
        return y;
    }
}
