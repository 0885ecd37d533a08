package io.columnarkafka.format.json;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Puts a Flink internal value into an Arrow vector with Arrow's own setters, so a test holds the very
 * same values as Flink {@code GenericRowData} (for the oracle) and as Arrow (for the encoder). Test
 * code only; independent of the encoder and of {@code RowDataArrowWriter}.
 */
final class ArrowByHand {
    private ArrowByHand() {}

    static void set(FieldVector vector, int index, LogicalType type, Object value) {
        if (value == null) {
            setNull(vector, index);
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN -> ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0);
            case TINYINT -> ((TinyIntVector) vector).setSafe(index, (Byte) value);
            case SMALLINT -> ((SmallIntVector) vector).setSafe(index, (Short) value);
            case INTEGER -> ((IntVector) vector).setSafe(index, (Integer) value);
            case BIGINT -> ((BigIntVector) vector).setSafe(index, (Long) value);
            case FLOAT -> ((Float4Vector) vector).setSafe(index, (Float) value);
            case DOUBLE -> ((Float8Vector) vector).setSafe(index, (Double) value);
            case DECIMAL -> ((DecimalVector) vector).setSafe(index, ((DecimalData) value).toBigDecimal());
            case CHAR, VARCHAR -> setBytes(vector, index, ((StringData) value).toBytes());
            case BINARY, VARBINARY -> setBytes(vector, index, (byte[]) value);
            case DATE -> ((DateDayVector) vector).setSafe(index, (Integer) value);
            case TIME_WITHOUT_TIME_ZONE -> ((TimeMilliVector) vector).setSafe(index, (Integer) value);
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    ((TimeStampVector) vector).setSafe(index, inUnit((TimeStampVector) vector, (TimestampData) value));
            case ARRAY -> setArray(vector, index, ((ArrayType) type).getElementType(), (ArrayData) value);
            case ROW -> setRow((StructVector) vector, index, (RowType) type, (RowData) value);
            case MAP -> setMap((MapVector) vector, index, ((MapType) type).getKeyType(),
                    ((MapType) type).getValueType(), (MapData) value);
            case MULTISET -> setMap((MapVector) vector, index, ((MultisetType) type).getElementType(),
                    new org.apache.flink.table.types.logical.IntType(), (MapData) value);
            default -> throw new IllegalArgumentException("no test setter for " + type);
        }
    }

    private static void setNull(FieldVector vector, int index) {
        if (vector instanceof BaseFixedWidthVector v) {
            v.setNull(index);
        } else if (vector instanceof VarCharVector v) {
            v.setNull(index);
        } else if (vector instanceof LargeVarCharVector v) {
            v.setNull(index);
        } else if (vector instanceof VarBinaryVector v) {
            v.setNull(index);
        } else if (vector instanceof LargeVarBinaryVector v) {
            v.setNull(index);
        } else if (vector instanceof ListVector v) {
            v.setNull(index);
        } else if (vector instanceof LargeListVector v) {
            v.setNull(index);
        } else if (vector instanceof StructVector v) {
            v.setNull(index);
        } else {
            throw new IllegalArgumentException("no null setter for " + vector.getClass());
        }
    }

    private static void setBytes(FieldVector vector, int index, byte[] bytes) {
        if (vector instanceof VarCharVector v) {
            v.setSafe(index, bytes);
        } else if (vector instanceof LargeVarCharVector v) {
            v.setSafe(index, bytes);
        } else if (vector instanceof VarBinaryVector v) {
            v.setSafe(index, bytes);
        } else {
            ((LargeVarBinaryVector) vector).setSafe(index, bytes);
        }
    }

    private static long inUnit(TimeStampVector vector, TimestampData t) {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        long millis = t.getMillisecond();
        int nanos = t.getNanoOfMillisecond();
        return switch (type.getUnit()) {
            case SECOND -> {
                if (millis % 1000 != 0 || nanos != 0) {
                    throw new IllegalArgumentException("not whole seconds: " + t);
                }
                yield millis / 1000;
            }
            case MILLISECOND -> millis;
            case MICROSECOND -> Math.addExact(Math.multiplyExact(millis, 1000L), nanos / 1000);
            case NANOSECOND -> Math.addExact(Math.multiplyExact(millis, 1_000_000L), nanos);
        };
    }

    private static void setArray(FieldVector vector, int index, LogicalType elementType, ArrayData array) {
        FieldVector child = vector.getChildrenFromFields().get(0);
        long start = vector instanceof LargeListVector large
                ? large.startNewValue(index)
                : ((ListVector) vector).startNewValue(index);
        for (int k = 0; k < array.size(); k++) {
            Object element = array.isNullAt(k) ? null : ArrayData.createElementGetter(elementType).getElementOrNull(array, k);
            set(child, (int) start + k, elementType, element);
        }
        if (vector instanceof LargeListVector large) {
            large.endValue(index, array.size());
        } else {
            ((ListVector) vector).endValue(index, array.size());
        }
    }

    private static void setRow(StructVector vector, int index, RowType type, RowData row) {
        vector.setIndexDefined(index);
        for (int f = 0; f < type.getFieldCount(); f++) {
            Object value = RowData.createFieldGetter(type.getTypeAt(f), f).getFieldOrNull(row);
            set(vector.getChildrenFromFields().get(f), index, type.getTypeAt(f), value);
        }
    }

    private static void setMap(MapVector vector, int index, LogicalType keyType, LogicalType valueType, MapData map) {
        int start = vector.startNewValue(index);
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector keys = entries.getChildrenFromFields().get(0);
        FieldVector values = entries.getChildrenFromFields().get(1);
        for (int k = 0; k < map.size(); k++) {
            entries.setIndexDefined(start + k);
            Object key = map.keyArray().isNullAt(k) ? null : map.keyArray().getString(k);
            set(keys, start + k, keyType, key);
            set(values, start + k, valueType,
                    ArrayData.createElementGetter(valueType).getElementOrNull(map.valueArray(), k));
        }
        vector.endValue(index, map.size());
    }

    /** The ArrowLayout schema with every Utf8, Binary and List replaced by its Large variant. */
    static Schema large(Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.getFields()) {
            fields.add(large(f));
        }
        return new Schema(fields);
    }

    private static Field large(Field field) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Utf8) {
            type = ArrowType.LargeUtf8.INSTANCE;
        } else if (type instanceof ArrowType.Binary) {
            type = ArrowType.LargeBinary.INSTANCE;
        } else if (type instanceof ArrowType.List) {
            type = ArrowType.LargeList.INSTANCE;
        }
        List<Field> children = new ArrayList<>();
        for (Field child : field.getChildren()) {
            children.add(large(child));
        }
        return new Field(field.getName(), new FieldType(field.isNullable(), type, null), children);
    }
}
