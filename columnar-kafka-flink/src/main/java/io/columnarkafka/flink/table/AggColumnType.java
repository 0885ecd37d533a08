package io.columnarkafka.flink.table;

/**
 * The types a vectorised local aggregate reads from the batches' vectors, as grouping keys and as aggregate
 * arguments: INT and BIGINT (held as longs), VARCHAR (as UTF-8 bytes: keys, and the arguments of MAX, MIN and
 * COUNT(DISTINCT)), DECIMAL of a precision up to 18 (its unscaled value a long: the arguments of SUM, $SUM0 and AVG,
 * summed in 128 bits, and of MAX and MIN), TIMESTAMP and TIMESTAMP_LTZ of a precision up to 3 (epoch milliseconds:
 * the arguments of MAX and MIN over an insert-only input).
 */
public enum AggColumnType { INT, BIGINT, VARCHAR, DECIMAL, TIMESTAMP }
