package io.columnarkafka.format.arrow;

import io.columnarkafka.format.BatchLayoutException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The Flink row type an Arrow schema carries under {@link ArrowLayout}: the inverse of {@link
 * ArrowLayout#schema}, for callers that hold Arrow schemas rather than Flink type strings. Where the layout
 * is not one-to-one it picks Flink's default: Utf8 is STRING, Binary is BYTES, Time(MILLISECOND, 32) is
 * TIME(0), a timestamp unit gives precision 3, 6 or 9 (MILLISECOND carries precision 0–3; SECOND has no
 * Flink type here), and Map&lt;K, Int32&gt; is a MAP, not a MULTISET.
 * Nullability follows each field.
 */
public final class ArrowRowTypes {
    private ArrowRowTypes() {}

    /**
     * The row type of {@code schema}.
     *
     * @throws BatchLayoutException naming a field with no Flink type in this layout
     */
    public static RowType rowType(Schema schema) {
        return rowType(schema.getFields(), true);
    }

    private static RowType rowType(List<Field> fields, boolean nullable) {
        List<RowType.RowField> rowFields = new ArrayList<>(fields.size());
        for (Field field : fields) {
            rowFields.add(new RowType.RowField(field.getName(), type(field)));
        }
        return new RowType(nullable, rowFields);
    }

    private static LogicalType type(Field field) {
        boolean nullable = field.isNullable();
        ArrowType type = field.getType();
        switch (type.getTypeID()) {
            case Bool:
                return new BooleanType(nullable);
            case Int:
                ArrowType.Int integer = (ArrowType.Int) type;
                if (integer.getIsSigned()) {
                    switch (integer.getBitWidth()) {
                        case 8: return new TinyIntType(nullable);
                        case 16: return new SmallIntType(nullable);
                        case 32: return new IntType(nullable);
                        case 64: return new BigIntType(nullable);
                        default: break;
                    }
                }
                break;
            case FloatingPoint:
                switch (((ArrowType.FloatingPoint) type).getPrecision()) {
                    case SINGLE: return new FloatType(nullable);
                    case DOUBLE: return new DoubleType(nullable);
                    default: break;
                }
                break;
            case Decimal:
                ArrowType.Decimal decimal = (ArrowType.Decimal) type;
                if (decimal.getBitWidth() == 128) {
                    return new DecimalType(nullable, decimal.getPrecision(), decimal.getScale());
                }
                break;
            case Utf8:
            case LargeUtf8:
                return new VarCharType(nullable, VarCharType.MAX_LENGTH);
            case Binary:
            case LargeBinary:
                return new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
            case Date:
                if (((ArrowType.Date) type).getUnit() == DateUnit.DAY) {
                    return new DateType(nullable);
                }
                break;
            case Time:
                ArrowType.Time time = (ArrowType.Time) type;
                if (time.getUnit() == TimeUnit.MILLISECOND && time.getBitWidth() == 32) {
                    return new TimeType(nullable, 0);
                }
                break;
            case Timestamp:
                ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
                if (timestamp.getUnit() == TimeUnit.SECOND) {
                    break;
                }
                int precision = precision(timestamp.getUnit());
                if (timestamp.getTimezone() == null) {
                    return new TimestampType(nullable, precision);
                } else if (timestamp.getTimezone().equals("UTC")) {
                    return new LocalZonedTimestampType(nullable, precision);
                }
                break;
            case List:
            case LargeList:
                return new ArrayType(nullable, type(field.getChildren().get(0)));
            case Struct:
                return rowType(field.getChildren(), nullable);
            case Map:
                List<Field> entry = field.getChildren().get(0).getChildren();
                return new MapType(nullable, type(entry.get(0)), type(entry.get(1)));
            default:
                break;
        }
        throw new BatchLayoutException(field.getName(), "Arrow type " + type + " has no Flink type in this layout");
    }

    private static int precision(TimeUnit unit) {
        switch (unit) {
            case MILLISECOND: return 3;
            case MICROSECOND: return 6;
            default: return 9;
        }
    }
}
