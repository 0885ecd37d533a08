package io.columnarkafka.format.protobuf.parity;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.columnarkafka.format.parity.EdgeValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Row types for protobuf messages (any subset of fields in any order, enums as names or numbers) and
 * seeded random rows for them: edge values from {@link EdgeValues}, enum names and numbers both valid and
 * unknown, nulls at every level, duplicate and null map keys.
 */
final class PbRows {
    private final Random random;

    PbRows(long seed) {
        this.random = new Random(seed);
    }

    /** Every field in declaration order, enums by name: the row type {@code PbToRowTypeUtil} derives. */
    static RowType allFields(Descriptor message, boolean enumsByNumber) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (FieldDescriptor fd : message.getFields()) {
            fields.add(new RowType.RowField(fd.getName(), type(fd, enumsByNumber, null)));
        }
        return new RowType(fields);
    }

    /** A random non-empty subset of the fields, shuffled; nested messages likewise. */
    RowType randomFields(Descriptor message) {
        List<FieldDescriptor> fds = new ArrayList<>(message.getFields());
        Collections.shuffle(fds, random);
        int count = 1 + random.nextInt(fds.size());
        List<RowType.RowField> fields = new ArrayList<>();
        for (FieldDescriptor fd : fds.subList(0, count)) {
            fields.add(new RowType.RowField(fd.getName(), type(fd, random.nextBoolean(), this)));
        }
        return new RowType(fields);
    }

    private static LogicalType type(FieldDescriptor fd, boolean enumsByNumber, PbRows subsets) {
        if (fd.isMapField()) {
            Descriptor entry = fd.getMessageType();
            return new MapType(single(entry.findFieldByName("key"), enumsByNumber, subsets),
                    single(entry.findFieldByName("value"), enumsByNumber, subsets));
        }
        LogicalType single = single(fd, enumsByNumber, subsets);
        return fd.isRepeated() ? new ArrayType(single) : single;
    }

    private static LogicalType single(FieldDescriptor fd, boolean enumsByNumber, PbRows subsets) {
        switch (fd.getJavaType()) {
            case INT:
                return new IntType();
            case LONG:
                return new BigIntType();
            case FLOAT:
                return new FloatType();
            case DOUBLE:
                return new DoubleType();
            case BOOLEAN:
                return new BooleanType();
            case STRING:
                return VarCharType.STRING_TYPE;
            case BYTE_STRING:
                return new VarBinaryType(VarBinaryType.MAX_LENGTH);
            case ENUM:
                return enumsByNumber ? new IntType() : VarCharType.STRING_TYPE;
            default:
                return subsets == null ? allFields(fd.getMessageType(), enumsByNumber)
                        : subsets.randomFields(fd.getMessageType());
        }
    }

    /** A random row of {@code type} for {@code message}. */
    GenericRowData row(Descriptor message, RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            FieldDescriptor fd = message.findFieldByName(type.getFieldNames().get(i));
            row.setField(i, random.nextInt(6) == 0 ? null : value(fd, type.getTypeAt(i)));
        }
        return row;
    }

    private Object value(FieldDescriptor fd, LogicalType type) {
        if (fd.isMapField()) {
            MapType map = (MapType) type;
            Descriptor entry = fd.getMessageType();
            Map<Object, Object> values = new LinkedHashMap<>();
            int size = random.nextInt(5) == 0 ? random.nextInt(40) : random.nextInt(4);
            for (int i = 0; i < size; i++) {
                Object key = random.nextInt(8) == 0 ? null : element(entry.findFieldByName("key"), map.getKeyType());
                values.put(key, random.nextInt(6) == 0 ? null : element(entry.findFieldByName("value"),
                        map.getValueType()));
            }
            return new GenericMapData(values);
        }
        if (fd.isRepeated()) {
            Object[] elements = new Object[random.nextInt(5)];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = random.nextInt(6) == 0 ? null : element(fd, ((ArrayType) type).getElementType());
            }
            return new GenericArrayData(elements);
        }
        return element(fd, type);
    }

    private Object element(FieldDescriptor fd, LogicalType type) {
        if (fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            return row(fd.getMessageType(), (RowType) type);
        }
        if (fd.getJavaType() == FieldDescriptor.JavaType.ENUM) {
            List<EnumValueDescriptor> values = fd.getEnumType().getValues();
            EnumValueDescriptor v = values.get(random.nextInt(values.size()));
            boolean unknown = random.nextInt(5) == 0;
            if (type instanceof IntType) {
                return unknown ? 12345 : v.getNumber();
            }
            return StringData.fromString(unknown ? "NOT_A_VALUE" : v.getName());
        }
        if (fd.getType() == FieldDescriptor.Type.BOOL && random.nextInt(3) == 0) {
            return false;
        }
        List<Object> edge = EdgeValues.of(type);
        return edge.get(random.nextInt(edge.size()));
    }
}
