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

    /** Digits an integer operand may need: its type's, or a literal's own. */
    private static int integerDigits(Node operand) {
        if (operand instanceof LiteralNode literal && !literal.isNull()) {
            long value = literal.longValue();
            return Long.toString(value).length() - (value < 0 ? 1 : 0);
        }
        return Types.integerDigits(operand.type);
    }

    private static boolean doubleOperand(LogicalType t) {
        return Types.isInteger(t) || Types.is(t, LogicalTypeRoot.DOUBLE);
    }

    private static boolean decimalOperand(LogicalType t) {
        return Types.isInteger(t) || t instanceof DecimalType;
    }

    /**
     * Flink computes the exact result (a quotient rounded to 38 digits), then sets it to the result scale
     * (HALF_UP) and returns null when it needs more digits than the result precision. {@code + - *} are
     * admitted where setting the scale cannot round and every intermediate fits 128 bits; {@code / %} always
     * ({@link DecimalDivision}). An integer operand must fit the result type, which Flink casts it to first
     * (a cast that overflows there gives a null operand and a failing job); a literal by its value.
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
        for (Node operand : new Node[] {left, right}) {
            if (Types.isInteger(operand.type) && integerDigits(operand) > resultIntegerDigits) {
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
            case DIVIDE:
            case MOD:
                return new DecimalDivision(op, left, right, type);
            default:
                throw new UnsupportedExpressionException(shape + ": not implemented");
        }
    }
}
