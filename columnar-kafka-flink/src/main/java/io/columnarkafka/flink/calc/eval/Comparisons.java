package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** Admits a comparison by its operand types and picks the domain it compares in. */
final class Comparisons {
    private Comparisons() {}

    static Node of(Expr.Call call, Node left, Node right) throws UnsupportedExpressionException {
        LogicalType l = left.type;
        LogicalType r = right.type;
        String shape = call.op() + " on " + Types.name(l) + ", " + Types.name(r);
        if (Types.isString(l) && Types.isString(r)) {
            return comparison(call, Comparison.Domain.STRING, left, right, 0, 0);
        }
        if (Types.is(l, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)
                && Types.is(r, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)) {
            return comparison(call, Comparison.Domain.TIMESTAMP, left, right, 0, 0);
        }
        if ((Types.is(l, LogicalTypeRoot.BOOLEAN) && Types.is(r, LogicalTypeRoot.BOOLEAN))
                || (Types.is(l, LogicalTypeRoot.DATE) && Types.is(r, LogicalTypeRoot.DATE))
                || (Types.isInteger(l) && Types.isInteger(r))) {
            return comparison(call, Comparison.Domain.LONG, left, right, 0, 0);
        }
        boolean lDouble = Types.is(l, LogicalTypeRoot.DOUBLE);
        boolean rDouble = Types.is(r, LogicalTypeRoot.DOUBLE);
        if ((lDouble || rDouble) && (lDouble || Types.isInteger(l)) && (rDouble || Types.isInteger(r))) {
            return comparison(call, Comparison.Domain.DOUBLE, left, right, 0, 0);
        }
        boolean lDecimal = l instanceof DecimalType;
        boolean rDecimal = r instanceof DecimalType;
        if ((lDecimal || rDecimal) && (lDecimal || Types.isInteger(l)) && (rDecimal || Types.isInteger(r))) {
            int scale = Math.max(Types.scale(l), Types.scale(r));
            if (Math.max(Types.integerDigits(l), Types.integerDigits(r)) + scale > 38) {
                throw new UnsupportedExpressionException(shape + ": the common scale needs more than 38 digits");
            }
            return comparison(call, Comparison.Domain.DECIMAL, left, right, scale - Types.scale(l),
                    scale - Types.scale(r));
        }
        throw new UnsupportedExpressionException(shape + ": not implemented for these operand types");
    }

    private static Node comparison(Expr.Call call, Comparison.Domain domain, Node left, Node right, int ls, int rs) {
        return new Comparison(call.op(), domain, left, right, ls, rs, call.type());
    }
}
