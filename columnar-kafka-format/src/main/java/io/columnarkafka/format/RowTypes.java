package io.columnarkafka.format;

import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/** Row types given as Flink SQL type strings, e.g. {@code ROW<auction BIGINT, dateTime TIMESTAMP(3)>}. */
public final class RowTypes {
    private RowTypes() {}

    /** Parses a Flink type string with Flink's own {@link LogicalTypeParser}; it must be a ROW. */
    public static RowType parse(String typeString) {
        LogicalType type;
        try {
            type = LogicalTypeParser.parse(typeString, RowTypes.class.getClassLoader());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid row type '" + typeString + "': " + e.getMessage(), e);
        }
        if (!(type instanceof RowType rowType)) {
            throw new IllegalArgumentException(
                    "row type must be a ROW<...>, got " + type.asSummaryString());
        }
        return rowType;
    }
}
