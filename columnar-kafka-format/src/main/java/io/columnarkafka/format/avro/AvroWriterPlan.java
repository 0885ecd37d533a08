package io.columnarkafka.format.avro;

import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Chooses the writer for each Flink type, once, when an encoder is built. Which types are allowed is
 * decided by {@link AvroSchemas} first (the plan only runs for types Flink derives a schema for).
 */
final class AvroWriterPlan {
    private AvroWriterPlan() {}

    static AvroValueWriter writer(String path, LogicalType type) {
        boolean nullable = type.isNullable();
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanAvroWriter(path, nullable);
            case TINYINT:
                return new IntAvroWriter(path, nullable, 1);
            case SMALLINT:
                return new IntAvroWriter(path, nullable, 2);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new IntAvroWriter(path, nullable, 4);
            case BIGINT:
                return new LongAvroWriter(path, nullable);
            case FLOAT:
                return new FloatAvroWriter(path, nullable, 4);
            case DOUBLE:
                return new FloatAvroWriter(path, nullable, 8);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new DecimalAvroWriter(path, nullable, decimal.getPrecision(), decimal.getScale());
            case CHAR:
            case VARCHAR:
                return new StringAvroWriter(path, nullable);
            case BINARY:
            case VARBINARY:
                return new BinaryAvroWriter(path, nullable);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new TimestampAvroWriter(path, nullable,
                        ArrowLayout.timeUnit(((TimestampType) type).getPrecision()));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new TimestampAvroWriter(path, nullable,
                        ArrowLayout.timeUnit(((LocalZonedTimestampType) type).getPrecision()));
            case ARRAY:
                return new ArrayAvroWriter(path, nullable, writer(path + "[]", ((ArrayType) type).getElementType()));
            case ROW:
                return new RecordAvroWriter(path, nullable, fields(path + ".", (RowType) type));
            case MAP:
            case MULTISET:
                LogicalType keyType = type instanceof MapType map ? map.getKeyType()
                        : ((MultisetType) type).getElementType();
                return new MapAvroWriter(path, nullable, new StringAvroWriter(path + ".key", keyType.isNullable()),
                        writer(path + ".value", AvroSchemas.mapValueType(type)));
            default:
                throw new IllegalArgumentException(
                        "column '" + path + "': Avro format does not support " + type.asSummaryString());
        }
    }

    /** Writers for the fields of a ROW; {@code prefix} is the row's path plus a dot (empty at the top). */
    static List<AvroValueWriter> fields(String prefix, RowType row) {
        List<AvroValueWriter> writers = new ArrayList<>(row.getFieldCount());
        for (int i = 0; i < row.getFieldCount(); i++) {
            writers.add(writer(prefix + row.getFieldNames().get(i), row.getTypeAt(i)));
        }
        return writers;
    }
}
