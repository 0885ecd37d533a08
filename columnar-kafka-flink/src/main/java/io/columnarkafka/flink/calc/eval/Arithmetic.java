package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** Admits arithmetic by the call's result type, as Flink's code generator picks its code by it. */
final class Arithmetic {
    private Arithmetic() {}

    static Node binary(Expr.Call call, Node left, Node right) throws UnsupportedExpressionException {
        LogicalType type = call.type();
        LogicalType l = left.type;
        LogicalType r = right.type;
        String shape = call.op() + " on " + Types.name(l) + ", " + Types.name(r) + " typed " + Types.name(type);
        if (Types.isInteger(type)) {
            if (!Types.isInteger(l) || !Types.isInteger(r)) {
                throw new UnsupportedExpressionException(shape + ": integer results are evaluated from integer operands");
            }
            boolean leftKeepsItsType = call.op() == Op.MOD && l.getTypeRoot() != r.getTypeRoot();
            return new IntegerArithmetic(call.op(), left, right, type, leftKeepsItsType);
        }
        if (Types.is(type, LogicalTypeRoot.DOUBLE)) {
            if (!doubleOperand(l) || !doubleOperand(r)) {
                throw new UnsupportedExpressionException(
                        shape + ": DOUBLE results are evaluated from DOUBLE and integer operands");
            }
            return new DoubleArithmetic(call.op(), left, right, type);
        }
        if (type instanceof DecimalType d) {
            return decimal(call.op(), shape, left, right, d);
        }
        throw new UnsupportedExpressionException(shape + ": not implemented for this result type");
    }

    static Node negate(Expr.Call call, Node operand) throws UnsupportedExpressionException {
        LogicalType type = call.type();
        LogicalType t = operand.type;
        if (Types.isInteger(type) && Types.isInteger(t)) {
            return new IntegerArithmetic(Op.UNARY_MINUS, operand, null, type, false);
        }
        if (Types.is(type, LogicalTypeRoot.DOUBLE) && doubleOperand(t)) {
            return new DoubleArithmetic(Op.UNARY_MINUS, operand, null, type);
        }
        if (type instanceof DecimalType d && t instanceof DecimalType o && d.getScale() == o.getScale()
                && d.getPrecision() >= o.getPrecision()) {
            return new DecimalArithmetic(Op.UNARY_MINUS, operand, o.getScale(), null, 0, d);
        }
        throw new UnsupportedExpressionException("UNARY_MINUS on " + Types.name(t) + " typed " + Types.name(type)
                + ": not implemented for these types");
    }

    private static boolean doubleOperand(LogicalType t) {
        return Types.isInteger(t) || Types.is(t, LogicalTypeRoot.DOUBLE);
    }

    private static boolean decimalOperand(LogicalType t) {
        return Types.isInteger(t) || t instanceof DecimalType;
    }

    /**
     * Flink computes the exact result, then sets it to the result scale (HALF_UP) and returns null when it
     * needs more digits than the result precision. Admitted where setting the scale cannot round and every
     * intermediate fits 128 bits; an integer operand must also fit the result type, which Flink casts it to
     * first (a cast that overflows there gives a null operand and a failing job).
     */
    private static Node decimal(Op op, String shape, Node left, Node right, DecimalType type)
            throws UnsupportedExpressionException {
        LogicalType l = left.type;
        LogicalType r = right.type;
        if (!decimalOperand(l) || !decimalOperand(r)) {
            throw new UnsupportedExpressionException(shape + ": DECIMAL results are evaluated from DECIMAL and integer"
                    + " operands");
        }
        int resultIntegerDigits = type.getPrecision() - type.getScale();
        for (LogicalType t : new LogicalType[] {l, r}) {
            if (Types.isInteger(t) && Types.integerDigits(t) > resultIntegerDigits) {
                throw new UnsupportedExpressionException(shape + ": the integer operand may not fit the result type");
            }
        }
        int ls = Types.scale(l);
        int rs = Types.scale(r);
        int scale = type.getScale();
        switch (op) {
            case PLUS:
            case MINUS:
                if (scale < Math.max(ls, rs)) {
                    throw new UnsupportedExpressionException(shape + ": the result scale rounds, not reproduced");
                }
                if (Math.max(Types.integerDigits(l), Types.integerDigits(r)) + 1 + scale > 38) {
                    throw new UnsupportedExpressionException(shape + ": intermediate beyond 38 digits, not reproduced");
                }
                return new DecimalArithmetic(op, left, ls, right, rs, type);
            case TIMES:
                if (scale < ls + rs) {
                    throw new UnsupportedExpressionException(shape + ": the result scale rounds, not reproduced");
                }
                if (Types.precision(l) > 19 || Types.precision(r) > 19
                        || (l instanceof DecimalType && Types.precision(l) > 18)
                        || (r instanceof DecimalType && Types.precision(r) > 18)) {
                    throw new UnsupportedExpressionException(
                            shape + ": operands wider than 64 bits are not multiplied by the columnar calc");
                }
                if (Types.precision(l) + Types.precision(r) + (scale - ls - rs) > 38) {
                    throw new UnsupportedExpressionException(shape + ": intermediate beyond 38 digits, not reproduced");
                }
                return new DecimalArithmetic(op, left, ls, right, rs, type);
            default:
                throw new UnsupportedExpressionException(shape + ": DECIMAL " + op
                        + " (rounding of the quotient or remainder) is not reproduced");
        }
    }
}
