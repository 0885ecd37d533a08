package io.columnarkafka.flink.calc;

/**
 * The operations the columnar calc may know. The planner maps Calcite's and Flink's operators onto these
 * names; whether a given operation on given operand types is evaluated exactly is decided by {@link
 * CalcSupport}, never by the presence of a name here.
 */
public enum Op {
    PLUS,
    MINUS,
    TIMES,
    DIVIDE,
    MOD,
    UNARY_MINUS,
    EQUALS,
    NOT_EQUALS,
    LESS_THAN,
    LESS_THAN_OR_EQUAL,
    GREATER_THAN,
    GREATER_THAN_OR_EQUAL,
    AND,
    OR,
    NOT,
    IS_NULL,
    IS_NOT_NULL,
    IS_TRUE,
    IS_NOT_TRUE,
    IS_FALSE,
    IS_NOT_FALSE,
    /** Operands: when1, then1, when2, then2, ..., else (Calcite's CASE shape; the else is always present). */
    CASE,
    /** One operand; the target type is the call's type. */
    CAST,
    /**
     * One operand, the same value typed otherwise: Flink's {@code Reinterpret}, e.g. of an event-time
     * column into a rowtime attribute (only the time-attribute marker of the type changes).
     */
    REINTERPRET,
    LOWER,
    UPPER,
    CONCAT,
    SUBSTRING,
    CHAR_LENGTH,
    LIKE,
    REGEXP_EXTRACT,
    SPLIT_INDEX,
    /** Operands: a {@link Expr.Literal} holding the unit name as StringData (e.g. "HOUR"), then the value. */
    EXTRACT,
    HOUR,
    DATE_FORMAT,
    /** Flink's internal HASH_CODE (the split distinct aggregate's bucket): one operand, an INT result. */
    HASH_CODE
}
