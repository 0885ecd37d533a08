package io.columnarkafka.format.csv;

import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Chooses the writer for each Flink type when an encoder is built, accepting the types Flink's {@code
 * CsvRowSchemaConverter} accepts: scalars at the top level and, one level down, as ARRAY elements and ROW
 * fields. MAP, MULTISET and deeper nesting are refused with Flink's messages.
 */
final class CsvWriterPlan {
    private final CsvFormatOptions options;
    private final CsvBytes bytes;
    private final CsvQuoting quoting;

    CsvWriterPlan(CsvFormatOptions options, CsvBytes bytes, CsvQuoting quoting) {
        this.options = options;
        this.bytes = bytes;
        this.quoting = quoting;
    }

    /**
     * The writer of top-level column {@code name}.
     *
     * @throws IllegalArgumentException for a type Flink's CSV format or the Arrow layout does not support
     */
    CsvValueWriter column(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                LogicalType element = ((ArrayType) type).getElementType();
                return new JoinedCsvWriter.Array(name, bytes, nested(name, name + "[]", element));
            case ROW:
                RowType row = (RowType) type;
                List<CsvValueWriter> fields = new ArrayList<>(row.getFieldCount());
                for (int i = 0; i < row.getFieldCount(); i++) {
                    fields.add(nested(name, name + "." + row.getFieldNames().get(i), row.getTypeAt(i)));
                }
                return new JoinedCsvWriter.Row(name, bytes, fields);
            default:
                CsvValueWriter scalar = scalar(name, type);
                if (scalar == null) {
                    ArrowLayout.field(name, type);
                    throw new IllegalArgumentException(
                            "Unsupported type '" + type.asSummaryString() + "' for field '" + name + "'.");
                }
                return scalar;
        }
    }

    private CsvValueWriter nested(String column, String path, LogicalType type) {
        CsvValueWriter scalar = scalar(path, type);
        if (scalar == null) {
            throw new IllegalArgumentException("Only simple types are supported in the second level nesting of"
                    + " fields '" + column + "' but was: " + type.asSummaryString());
        }
        return scalar;
    }

    /** The writer of a scalar type, or null for a type that is not one. */
    private CsvValueWriter scalar(String path, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanCsvWriter(path);
            case TINYINT:
                return new NumberCsvWriter(path, NumberCsvWriter.Kind.INT8);
            case SMALLINT:
                return new NumberCsvWriter(path, NumberCsvWriter.Kind.INT16);
            case INTEGER:
                return new NumberCsvWriter(path, NumberCsvWriter.Kind.INT32);
            case BIGINT:
                return new NumberCsvWriter(path, NumberCsvWriter.Kind.INT64);
            case FLOAT:
                return new NumberCsvWriter(path, NumberCsvWriter.Kind.FLOAT32);
            case DOUBLE:
                return new NumberCsvWriter(path, NumberCsvWriter.Kind.FLOAT64);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new DecimalCsvWriter(
                        path, decimal.getPrecision(), decimal.getScale(), options.scientificDecimals());
            case CHAR:
            case VARCHAR:
                return new Utf8CsvWriter(path, quoting);
            case BINARY:
            case VARBINARY:
                return new BinaryCsvWriter(path);
            case DATE:
                return new TemporalCsvWriter.Date(path);
            case TIME_WITHOUT_TIME_ZONE:
                return new TemporalCsvWriter.Time(path);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new TemporalCsvWriter.Timestamp(
                        path, ArrowLayout.timeUnit(((TimestampType) type).getPrecision()), false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new TemporalCsvWriter.Timestamp(
                        path, ArrowLayout.timeUnit(((LocalZonedTimestampType) type).getPrecision()), true);
            default:
                return null;
        }
    }
}
