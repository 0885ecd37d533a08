package io.columnarkafka.planner.match;

/** Why a node of the plan runs on Flink's own operator instead of a columnar one. */
public enum Reason {
    /** A scan of a table that is not {@code kafka-columnar}. */
    NOT_KAFKA_COLUMNAR_SCAN,
    /** A {@code kafka-columnar} scan the connector itself did not admit (its reason follows). */
    SCAN_NOT_ADMITTED,
    /** A sink into a table that is not {@code kafka-columnar}. */
    NOT_KAFKA_COLUMNAR_SINK,
    /** A {@code kafka-columnar} sink the connector did not admit, or whose shape needs a row per record. */
    SINK_NOT_ADMITTED,
    /** The node's input is not columnar: turning rows back into Arrow for it would gain nothing. */
    INPUT_NOT_COLUMNAR,
    /**
     * The node's input carries updates or deletes, which this node would not keep: a changelog's batches carry row
     * kinds through a columnar Calc, the mini-batch assigner and the edge to rows, into a changelog format's sink only.
     */
    NOT_INSERT_ONLY,
    /** A Calc expression with no columnar counterpart (an operator, literal or shape not translated). */
    EXPRESSION_NOT_TRANSLATED,
    /** A Calc the columnar calc does not evaluate exactly as Flink's generated code ({@code CalcSupport}). */
    CALC_NOT_EXACT,
    /**
     * The columnar operator reads parts of Flink's operator that this Flink version does not keep where Flink 2.2.1
     * does (its local window aggregate's private fields).
     */
    FLINK_INTERNALS_UNREADABLE,
    /**
     * A local group aggregate the vectorised operator does not compute exactly (its shape, which follows), or with
     * the planner option that runs it off.
     */
    AGGREGATE_NOT_VECTORISED,
    /** An Expand whose projections the columnar expand does not copy (which follows). */
    EXPAND_NOT_TRANSLATED,
    /** A node kind with no columnar operator (aggregates, joins, exchanges, watermarks, ...). */
    ROW_OPERATOR
}
