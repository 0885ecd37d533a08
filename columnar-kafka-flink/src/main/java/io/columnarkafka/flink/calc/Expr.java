package io.columnarkafka.flink.calc;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.generated.GeneratedFunction;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * An expression over one input batch, typed as the planner typed it: {@link #type()} is the Flink
 * {@link LogicalType} of the result, its nullability included. The calc trusts these types (they are the
 * types of Flink's generated code, which it must reproduce) and {@link CalcSupport} refuses any
 * combination it does not evaluate exactly.
 *
 * <p>Serializable, because a {@link CalcProgram} travels inside {@link ColumnarCalcOperator} to the task
 * managers.
 */
public sealed interface Expr extends Serializable {
    /** The result type, as Flink's planner typed the expression. */
    LogicalType type();

    /** Input column {@code index} of the batch. */
    record Column(int index, LogicalType type) implements Expr {
        public Column {
            if (index < 0) {
                throw new IllegalArgumentException("column index must not be negative: " + index);
            }
            Objects.requireNonNull(type, "type");
        }
    }

    /** Field {@code index} of a ROW-typed expression; null when the row is null. */
    record Field(Expr row, int index, LogicalType type) implements Expr {
        public Field {
            Objects.requireNonNull(row, "row");
            Objects.requireNonNull(type, "type");
            if (index < 0) {
                throw new IllegalArgumentException("field index must not be negative: " + index);
            }
        }
    }

    /**
     * A constant in Flink's internal data format ({@link Boolean}, {@link Byte}, {@link Short}, {@link
     * Integer}, {@link Long}, {@link Float}, {@link Double}, {@link StringData}, {@link DecimalData},
     * {@link TimestampData}, ...), or null for a typed NULL.
     */
    record Literal(Object value, LogicalType type) implements Expr {
        public Literal {
            Objects.requireNonNull(type, "type");
        }

        /** Flink's internal values are not {@link Serializable}; they travel as plain Java values. */
        private Object writeReplace() {
            return new SerializedLiteral(toSerializable(value), type);
        }

        private static Object toSerializable(Object value) {
            if (value instanceof StringData s) {
                return new SerializedString(s.toString());
            }
            if (value instanceof DecimalData d) {
                return new SerializedDecimal(d.toBigDecimal(), d.precision(), d.scale());
            }
            if (value instanceof TimestampData t) {
                return new SerializedTimestamp(t.getMillisecond(), t.getNanoOfMillisecond());
            }
            return value;
        }
    }

    /** An operation on operands; see {@link Op} for the operand shapes of CASE and EXTRACT. */
    record Call(Op op, List<Expr> operands, LogicalType type) implements Expr {
        public Call {
            Objects.requireNonNull(op, "op");
            operands = List.copyOf(operands);
            Objects.requireNonNull(type, "type");
        }

        /** Shorthand for {@code Call(op, List.of(operands), type)}. */
        public static Call of(Op op, LogicalType type, Expr... operands) {
            return new Call(op, List.of(operands), type);
        }
    }

    /**
     * A call only Flink's own generated code evaluates (a user-defined scalar function), run by the calc row by row
     * for the rows it is evaluated for, in their order. {@code code} is the class Flink's code generator made for the
     * calls of the Calc, shared by all of them (one object, also once serialized), holding one instance of each
     * function as Flink's Calc does; this call is its entry point {@code site}, which reads each non-literal operand
     * from field {@code i} of its input row, field {@code i} being {@code arguments.get(i)} (which the calc evaluates
     * on the vectors first), and returns a one-field row holding the call's value. Equal only to itself: two calls
     * are never merged.
     *
     * @param name what the call is, for EXPLAIN and errors ({@code UDF count_char})
     */
    record FlinkCode(GeneratedFunction<FlinkCodeSites> code, int site, List<Expr> arguments, String name,
                     LogicalType type) implements Expr {
        public FlinkCode {
            Objects.requireNonNull(code, "code");
            arguments = List.copyOf(arguments);
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }

        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The serialized form of a {@link Literal}; turns back into one with Flink's internal value. */
    record SerializedLiteral(Object value, LogicalType type) implements Serializable {
        private Object readResolve() {
            Object internal = value;
            if (value instanceof SerializedString s) {
                internal = StringData.fromString(s.value());
            } else if (value instanceof SerializedDecimal d) {
                internal = DecimalData.fromBigDecimal(d.value(), d.precision(), d.scale());
            } else if (value instanceof SerializedTimestamp t) {
                internal = TimestampData.fromEpochMillis(t.millis(), t.nanoOfMillisecond());
            }
            return new Literal(internal, type);
        }
    }

    /** Serialized {@link StringData}. */
    record SerializedString(String value) implements Serializable {}

    /** Serialized {@link DecimalData}. */
    record SerializedDecimal(BigDecimal value, int precision, int scale) implements Serializable {}

    /** Serialized {@link TimestampData}. */
    record SerializedTimestamp(long millis, int nanoOfMillisecond) implements Serializable {}
}
