package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/** How a node holds its values in a {@link Column}; chosen once per node from its Flink type. */
enum Repr {
    /** BOOLEAN as 0/1, TINYINT, SMALLINT, INT, BIGINT, DATE: {@link Column#longs}. */
    LONG,
    /** DOUBLE: {@link Column#doubles}. */
    DOUBLE,
    /** DECIMAL: the unscaled value as a 128-bit two's complement, {@link Column#highs} and {@link Column#longs}. */
    DECIMAL,
    /** CHAR, VARCHAR: UTF-8 bytes, {@link Column#bytes} at {@link Column#starts}/{@link Column#lengths}. */
    STRING,
    /** TIMESTAMP: epoch milliseconds in {@link Column#longs}, nanos of the millisecond in {@link Column#nanos}. */
    TIMESTAMP;

    /** The representation of {@code type}, or null when the calc holds no values of it. */
    static Repr of(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DATE:
                return LONG;
            case DOUBLE:
                return DOUBLE;
            case DECIMAL:
                return DECIMAL;
            case CHAR:
            case VARCHAR:
                return STRING;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return TIMESTAMP;
            default:
                return null;
        }
    }
}
