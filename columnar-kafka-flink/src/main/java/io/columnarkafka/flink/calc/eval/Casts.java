package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/** Admits a CAST by its source and target types; see {@link Cast} for what each admitted kind computes. */
final class Casts {
    private Casts() {}

    static Node of(Expr.Call call, Node operand) throws UnsupportedExpressionException {
        LogicalType from = operand.type;
        LogicalType to = call.type();
        String shape = "CAST from " + Types.name(from) + " to " + Types.name(to);
        Compiler.requireRepr(to, shape);
        if (Types.isInteger(from) && Types.isInteger(to)) {
            return cast(Cast.Kind.INTEGER_TO_INTEGER, operand, IntegerArithmetic.bits(to.getTypeRoot()), 0, 0, to);
        }
        if (Types.isInteger(from) && Types.is(to, LogicalTypeRoot.DOUBLE)) {
            return cast(Cast.Kind.INTEGER_TO_DOUBLE, operand, 0, 0, 0, to);
        }
        if (Types.is(from, LogicalTypeRoot.DOUBLE) && Types.isInteger(to)) {
            return cast(Cast.Kind.DOUBLE_TO_INTEGER, operand, IntegerArithmetic.bits(to.getTypeRoot()), 0, 0, to);
        }
        if (Types.isInteger(from) && to instanceof DecimalType d) {
            return cast(Cast.Kind.INTEGER_TO_DECIMAL, operand, 0, d.getScale(), d.getPrecision(), to);
        }
        if (from instanceof DecimalType f && to instanceof DecimalType d) {
            if (d.getScale() < f.getScale()) {
                throw new UnsupportedExpressionException(shape + ": lowering the scale rounds, not reproduced");
            }
            return cast(Cast.Kind.DECIMAL_TO_DECIMAL, operand, 0, d.getScale() - f.getScale(), d.getPrecision(), to);
        }
        if (Types.isInteger(from) && Compiler.isUnboundedString(to)) {
            return cast(Cast.Kind.INTEGER_TO_STRING, operand, 0, 0, 0, to);
        }
        if (from instanceof TimestampType f && Compiler.isUnboundedString(to)) {
            return cast(Cast.Kind.TIMESTAMP_TO_STRING, operand, 0, 0, f.getPrecision(), to);
        }
        if (Types.isString(from)) {
            StringCast.Target target = stringCastTarget(to);
            if (target != null) {
                return new StringCast(target, operand, to);
            }
        }
        if (Types.isString(from) && to instanceof VarCharType v && v.getLength() >= length(from)) {
            return cast(Cast.Kind.SAME, operand, 0, 0, 0, to);
        }
        if (from instanceof TimestampType f && to instanceof TimestampType t && t.getPrecision() >= f.getPrecision()) {
            return cast(Cast.Kind.SAME, operand, 0, 0, 0, to);
        }
        throw new UnsupportedExpressionException(shape + ": not implemented");
    }

    /** The parser for a CAST from a string to {@code to}, or null when there is none. */
    private static StringCast.Target stringCastTarget(LogicalType to) {
        switch (to.getTypeRoot()) {
            case TINYINT:
                return StringCast.Target.TINYINT;
            case SMALLINT:
                return StringCast.Target.SMALLINT;
            case INTEGER:
                return StringCast.Target.INTEGER;
            case BIGINT:
                return StringCast.Target.BIGINT;
            case DOUBLE:
                return StringCast.Target.DOUBLE;
            case DECIMAL:
                return StringCast.Target.DECIMAL;
            case BOOLEAN:
                return StringCast.Target.BOOLEAN;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return StringCast.Target.TIMESTAMP;
            default:
                return null;
        }
    }

    private static int length(LogicalType stringType) {
        return stringType instanceof CharType c ? c.getLength() : ((VarCharType) stringType).getLength();
    }

    private static Node cast(Cast.Kind kind, Node operand, int bits, int scaleUp, int precision, LogicalType to) {
        return new Cast(kind, operand, bits, scaleUp, precision, to);
    }
}
