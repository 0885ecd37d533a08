package io.columnarkafka.format.arrow;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Copies one Flink field (of a {@link RowData}) or element (of an {@link ArrayData}) into one slot of an
 * Arrow vector. One writer is built per column and nested type when the batch is planned, so writing a
 * value never looks at the type again.
 *
 * @param <V> the Arrow vector the writer fills
 */
abstract class FieldWriter<V extends FieldVector> {
    /** Column path for error messages, as {@link ArrowLayout#check} names nested columns. */
    final String path;
    final V vector;

    FieldWriter(String path, V vector) {
        this.path = path;
        this.vector = vector;
    }

    /** Writes field {@code pos} of {@code row}, null or not, into slot {@code index}. */
    final void write(RowData row, int pos, int index) {
        if (row.isNullAt(pos)) {
            vector.setNull(index);
        } else {
            writeValue(row, pos, index);
        }
    }

    /** Writes element {@code pos} of {@code array}, null or not, into slot {@code index}. */
    final void write(ArrayData array, int pos, int index) {
        if (array.isNullAt(pos)) {
            vector.setNull(index);
        } else {
            writeValue(array, pos, index);
        }
    }

    abstract void writeValue(RowData row, int pos, int index);

    abstract void writeValue(ArrayData array, int pos, int index);

    /**
     * The writer for a column of {@code type} carried in {@code vector}, which must have been created from
     * {@link ArrowLayout}'s field of the same type (in either {@link ArrowLayout.NanoTimestamps} layout).
     */
    static FieldWriter<?> of(String path, LogicalType type, FieldVector vector) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new ScalarWriters.BooleanWriter(path, (BitVector) vector);
            case TINYINT:
                return new ScalarWriters.TinyIntWriter(path, (TinyIntVector) vector);
            case SMALLINT:
                return new ScalarWriters.SmallIntWriter(path, (SmallIntVector) vector);
            case INTEGER:
                return new ScalarWriters.IntWriter(path, (IntVector) vector);
            case BIGINT:
                return new ScalarWriters.BigIntWriter(path, (BigIntVector) vector);
            case FLOAT:
                return new ScalarWriters.FloatWriter(path, (Float4Vector) vector);
            case DOUBLE:
                return new ScalarWriters.DoubleWriter(path, (Float8Vector) vector);
            case DECIMAL:
                return new ScalarWriters.DecimalWriter(path, (DecimalVector) vector, (DecimalType) type);
            case CHAR:
            case VARCHAR:
                return new ScalarWriters.StringWriter(path, (VarCharVector) vector);
            case BINARY:
            case VARBINARY:
                return new ScalarWriters.BinaryWriter(path, (VarBinaryVector) vector);
            case DATE:
                return new ScalarWriters.DateWriter(path, (DateDayVector) vector);
            case TIME_WITHOUT_TIME_ZONE:
                return new ScalarWriters.TimeWriter(path, (TimeMilliVector) vector);
            case INTERVAL_YEAR_MONTH:
                return new ScalarWriters.MonthsWriter(path, (IntervalYearVector) vector);
            case INTERVAL_DAY_TIME:
                return new ScalarWriters.MillisDurationWriter(path, (DurationVector) vector);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestampWriter(path, vector, ((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestampWriter(path, vector, ((LocalZonedTimestampType) type).getPrecision());
            case ARRAY:
                ListVector list = (ListVector) vector;
                return new NestedWriters.ArrayWriter(path, list,
                        of(path + "[]", ((ArrayType) type).getElementType(), list.getDataVector()));
            case ROW:
                return NestedWriters.RowWriter.of(path, (RowType) type, (StructVector) vector);
            case MAP:
                MapType map = (MapType) type;
                return NestedWriters.MapWriter.of(path, map.getKeyType(), map.getValueType(), (MapVector) vector);
            case MULTISET:
                return NestedWriters.MapWriter.of(path, ((MultisetType) type).getElementType(),
                        new org.apache.flink.table.types.logical.IntType(false), (MapVector) vector);
            default:
                throw new IllegalArgumentException(
                        "column '" + path + "': Flink type " + type.asSummaryString() + " has no Arrow layout");
        }
    }

    /** Arrow's timestamp units, or the full-range {@link WideTimestamps} layout the vector was made in. */
    private static FieldWriter<?> timestampWriter(String path, FieldVector vector, int precision) {
        if (vector instanceof FixedSizeBinaryVector wide) {
            return new WideTimestampWriter(path, wide, precision);
        }
        return new TimestampWriter(path, (TimeStampVector) vector, precision);
    }
}
