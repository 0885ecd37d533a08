package io.columnarkafka.format.csv;

import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;

/** Chooses the reader of each CSV column once, refusing the types Flink's CSV format refuses, with its messages. */
final class CsvReaderPlan {
    private final CsvFormatOptions options;

    CsvReaderPlan(CsvFormatOptions options) {
        this.options = options;
    }

    /**
     * The reader of top-level column {@code name}.
     *
     * @throws IllegalArgumentException for a type Flink's CSV format or the Arrow layout does not support
     */
    CsvFieldReader column(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return new CsvNestedReaders.ArrayReader(name,
                        nested(name, name + "[]", ((ArrayType) type).getElementType()), options);
            case ROW:
                RowType row = (RowType) type;
                CsvFieldReader[] fields = new CsvFieldReader[row.getFieldCount()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = nested(name, name + "." + row.getFieldNames().get(i), row.getTypeAt(i));
                }
                return new CsvNestedReaders.RowReader(name, fields, options);
            default:
                CsvFieldReader scalar = scalar(name, type);
                if (scalar == null) {
                    ArrowLayout.field(name, type);
                    throw new IllegalArgumentException(
                            "Unsupported type '" + type.asSummaryString() + "' for field '" + name + "'.");
                }
                return scalar;
        }
    }

    private CsvFieldReader nested(String column, String path, LogicalType type) {
        CsvFieldReader scalar = scalar(path, type);
        if (scalar == null) {
            throw new IllegalArgumentException("Only simple types are supported in the second level nesting of"
                    + " fields '" + column + "' but was: " + type.asSummaryString());
        }
        return scalar;
    }

    /** The reader of a scalar type, or null for a type that is not one. */
    private static CsvFieldReader scalar(String path, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new CsvScalarReaders.BooleanReader(path);
            case TINYINT:
                return new CsvScalarReaders.TinyIntReader(path);
            case SMALLINT:
                return new CsvScalarReaders.SmallIntReader(path);
            case INTEGER:
                return new CsvScalarReaders.IntReader(path);
            case BIGINT:
                return new CsvScalarReaders.BigIntReader(path);
            case FLOAT:
                return new CsvScalarReaders.FloatReader(path);
            case DOUBLE:
                return new CsvScalarReaders.DoubleReader(path);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new CsvScalarReaders.DecimalReader(path, decimal.getPrecision(), decimal.getScale());
            case CHAR:
            case VARCHAR:
                return new CsvScalarReaders.StringReader(path);
            case BINARY:
            case VARBINARY:
                return new CsvScalarReaders.BinaryReader(path);
            case DATE:
                return new CsvScalarReaders.DateReader(path);
            case TIME_WITHOUT_TIME_ZONE:
                return new CsvScalarReaders.TimeReader(path, ((TimeType) type).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new CsvScalarReaders.TimestampReader(path, false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new CsvScalarReaders.TimestampReader(path, true);
            default:
                return null;
        }
    }
}
