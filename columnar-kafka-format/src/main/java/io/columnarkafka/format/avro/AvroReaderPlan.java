package io.columnarkafka.format.avro;

import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Chooses the reader for each Flink type, once, when a decoder is built ({@link AvroSchemas} has already
 * refused what Flink refuses, including maps whose keys are not strings).
 */
final class AvroReaderPlan {
    private AvroReaderPlan() {}

    static AvroFieldReader reader(String path, LogicalType type) {
        boolean nullable = type.isNullable();
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new AvroReaders.BooleanReader(path, nullable);
            case TINYINT:
                return new AvroReaders.TinyIntReader(path, nullable);
            case SMALLINT:
                return new AvroReaders.SmallIntReader(path, nullable);
            case INTEGER:
                return new AvroReaders.IntReader(path, nullable);
            case DATE:
                return new AvroReaders.DateReader(path, nullable);
            case TIME_WITHOUT_TIME_ZONE:
                return new AvroReaders.TimeReader(path, nullable);
            case BIGINT:
                return new AvroReaders.BigIntReader(path, nullable);
            case FLOAT:
                return new AvroReaders.FloatReader(path, nullable);
            case DOUBLE:
                return new AvroReaders.DoubleReader(path, nullable);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new AvroReaders.DecimalReader(path, nullable, decimal.getPrecision(), decimal.getScale());
            case CHAR:
            case VARCHAR:
                return new AvroReaders.StringReader(path, nullable);
            case BINARY:
            case VARBINARY:
                return new AvroReaders.BinaryReader(path, nullable);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new AvroReaders.TimestampReader(path, nullable,
                        ArrowLayout.timeUnit(((TimestampType) type).getPrecision()));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new AvroReaders.TimestampReader(path, nullable,
                        ArrowLayout.timeUnit(((LocalZonedTimestampType) type).getPrecision()));
            case ARRAY:
                return new AvroReaders.ArrayReader(path, nullable,
                        reader(path + "[]", ((ArrayType) type).getElementType()));
            case ROW:
                return new AvroReaders.RecordReader(path, nullable, fields(path + ".", (RowType) type));
            case MAP:
            case MULTISET:
                return new MapAvroReader(path, nullable, reader(path + "{}", AvroSchemas.mapValueType(type)));
            default:
                throw new IllegalArgumentException("column '" + path + "': the columnar avro decoder does not read "
                        + type.asSummaryString());
        }
    }

    /** Readers for the fields of a ROW; {@code prefix} is the row's path plus a dot (empty at the top). */
    static AvroFieldReader[] fields(String prefix, RowType row) {
        AvroFieldReader[] readers = new AvroFieldReader[row.getFieldCount()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = reader(prefix + row.getFieldNames().get(i), row.getTypeAt(i));
        }
        return readers;
    }
}
