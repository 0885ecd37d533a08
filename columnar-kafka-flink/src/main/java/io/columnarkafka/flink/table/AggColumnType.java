package io.columnarkafka.flink.table;

/**
 * The types a vectorised local aggregate reads from the batches' vectors, as grouping keys and as aggregate
 * arguments: INT and BIGINT (held as longs), VARCHAR (keys only, as UTF-8 bytes).
 */
public enum AggColumnType { INT, BIGINT, VARCHAR }
