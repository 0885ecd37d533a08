package io.columnarkafka.flink.calc;

import java.math.BigDecimal;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/** Builds {@link Expr}s over a named input row type, for tests. */
final class Exprs {
    static final LogicalType BOOLEAN = new BooleanType();
    static final LogicalType BOOLEAN_NOT_NULL = new BooleanType(false);
    static final LogicalType INT = new IntType();
    static final LogicalType BIGINT = new BigIntType();
    static final LogicalType STRING = VarCharType.STRING_TYPE;

    private final RowType input;

    Exprs(RowType input) {
        this.input = input;
    }

    Expr.Column col(String name) {
        int index = input.getFieldIndex(name);
        if (index < 0) {
            throw new IllegalArgumentException("no column " + name + " in " + input);
        }
        return new Expr.Column(index, input.getTypeAt(index));
    }

    Expr.Field field(String column, String field) {
        Expr.Column row = col(column);
        RowType rowType = (RowType) row.type();
        int index = rowType.getFieldIndex(field);
        return new Expr.Field(row, index, rowType.getTypeAt(index));
    }

    static Expr.Literal lit(int v) {
        return new Expr.Literal(v, new IntType(false));
    }

    static Expr.Literal lit(long v) {
        return new Expr.Literal(v, new BigIntType(false));
    }

    static Expr.Literal lit(String v) {
        return new Expr.Literal(StringData.fromString(v), new org.apache.flink.table.types.logical.CharType(false,
                Math.max(1, v.length())));
    }

    static Expr.Literal lit(String v, LogicalType type) {
        return new Expr.Literal(StringData.fromString(v), type);
    }

    static Expr.Literal dec(String v) {
        BigDecimal d = new BigDecimal(v);
        int precision = Math.max(d.precision(), d.scale()); // 0.005 is DECIMAL(3, 3)
        return new Expr.Literal(DecimalData.fromBigDecimal(d, precision, d.scale()),
                new DecimalType(false, precision, d.scale()));
    }

    /** A day-time INTERVAL literal of {@code millis} milliseconds, as Flink holds it (a {@code long}). */
    static Expr.Literal interval(long millis) {
        return new Expr.Literal(millis, new DayTimeIntervalType(false, DayTimeIntervalType.DayTimeResolution.SECOND,
                DayTimeIntervalType.DEFAULT_DAY_PRECISION, 3));
    }

    static Expr.Literal unit(String name) {
        return new Expr.Literal(StringData.fromString(name), new VarCharType(false, name.length()));
    }

    static Expr.Call call(Op op, LogicalType type, Expr... operands) {
        return new Expr.Call(op, List.of(operands), type);
    }

    static LogicalType decimal(int precision, int scale) {
        return new DecimalType(precision, scale);
    }

    static LogicalType notNull(LogicalType t) {
        return t.copy(false);
    }
}
