package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Chooses the reader of each column from its protobuf field and Flink type, once, when a decoder is built.
 * Columns match fields by name ({@link PbColumnTypes} checks the pair, as for the encoder). What an unset
 * field reads as follows Flink 2.2's {@code PbCodegenRowDeserializer}: a scalar (also an enum) reads the
 * getter's default when {@code read-default-values} is true or the message is proto3, else null (Flink
 * checks {@code hasX()}); a message, repeated field or map reads the default instance, empty array or empty
 * map only when {@code read-default-values} is true, else null (Flink checks {@code hasX()} or {@code
 * getXCount() > 0}), in proto3 too. Map keys and values and array elements are never null.
 */
final class PbReaderPlan {
    private final boolean readDefaultValues;
    private final boolean readScalarDefaults;
    private final Map<Descriptor, PbShape> shapes = new HashMap<>();

    /**
     * @param readDefaultValues the {@code read-default-values} option
     * @param proto3 the record's message is declared in a proto3 file (Flink then reads scalar defaults)
     */
    PbReaderPlan(boolean readDefaultValues, boolean proto3) {
        this.readDefaultValues = readDefaultValues;
        this.readScalarDefaults = readDefaultValues || proto3;
    }

    /** The reader of {@code message}'s fields named by {@code row}; {@code path}: the message's column path. */
    PbMessageReader message(String path, Descriptor message, RowType row) {
        PbShape shape = PbShape.of(message, shapes);
        String prefix = path.isEmpty() ? "" : path + ".";
        List<PbFieldReader> columns = new ArrayList<>(row.getFieldCount());
        for (int c = 0; c < row.getFieldCount(); c++) {
            String name = row.getFieldNames().get(c);
            FieldDescriptor fd = message.findFieldByName(name);
            if (fd == null) {
                throw new IllegalArgumentException("column '" + prefix + name + "': protobuf message "
                        + message.getFullName() + " has no field of that name");
            }
            columns.add(field(prefix + name, shape.indexOf(fd), fd, row.getTypeAt(c)));
        }
        return new PbMessageReader(path, shape, columns);
    }

    private PbFieldReader field(String path, int index, FieldDescriptor fd, LogicalType type) {
        if (fd.isMapField()) {
            PbColumnTypes.requireCollection(path, fd, type);
            return map(path, index, fd, (MapType) type);
        }
        if (fd.isRepeated()) {
            PbColumnTypes.requireCollection(path, fd, type);
            LogicalType element = ((ArrayType) type).getElementType();
            PbColumnTypes.requireSingle(path + "[]", fd, element);
            if (fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                return new PbRepeatedReader(path, index, null, false,
                        message(path + "[]", fd.getMessageType(), (RowType) element), readDefaultValues);
            }
            return new PbRepeatedReader(path, index, PbValueReaders.of(fd, PbColumnTypes.enumByName(element)),
                    fd.getJavaType() != FieldDescriptor.JavaType.STRING
                            && fd.getJavaType() != FieldDescriptor.JavaType.BYTE_STRING,
                    null, readDefaultValues);
        }
        return single(path, index, fd, type, false);
    }

    /**
     * A singular field; {@code inMapEntry}: a map's key or value, which protobuf-java's map entry gives its
     * default when absent (and Flink reads without checking presence).
     */
    private PbFieldReader single(String path, int index, FieldDescriptor fd, LogicalType type, boolean inMapEntry) {
        PbColumnTypes.requireSingle(path, fd, type);
        if (fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            return new PbMessageFieldReader(path, index, message(path, fd.getMessageType(), (RowType) type),
                    inMapEntry || readDefaultValues);
        }
        return new PbScalarFieldReader(path, index, PbValueReaders.of(fd, PbColumnTypes.enumByName(type)),
                inMapEntry || readScalarDefaults);
    }

    private PbFieldReader map(String path, int index, FieldDescriptor fd, MapType type) {
        Descriptor entry = fd.getMessageType();
        FieldDescriptor keyFd = entry.findFieldByName("key");
        FieldDescriptor valueFd = entry.findFieldByName("value");
        if (valueFd.getJavaType() == FieldDescriptor.JavaType.ENUM && valueFd.legacyEnumFieldTreatedAsClosed()) {
            // protobuf-java drops a whole entry whose value its closed enum does not declare
            throw new IllegalArgumentException("column '" + path + "': the columnar protobuf decoder does not read"
                    + " maps whose values are a closed (proto2) enum");
        }
        PbShape entryShape = PbShape.of(entry, shapes);
        PbMessageReader entryReader = new PbMessageReader(path, entryShape, List.of(
                single(path + ".key", entryShape.indexOf(keyFd), keyFd, type.getKeyType(), true),
                single(path + ".value", entryShape.indexOf(valueFd), valueFd, type.getValueType(), true)));
        return new PbMapReader(path, index, entryReader, new PbMapKeys(keyFd), readDefaultValues);
    }
}
