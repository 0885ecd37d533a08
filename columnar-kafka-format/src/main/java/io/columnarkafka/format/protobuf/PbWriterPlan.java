package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Chooses the writer of each column from its protobuf field descriptor and Flink type, once, when an
 * encoder is built. Columns match fields by name, as in Flink; the accepted pairs are Flink's: int32-like
 * fields from INT, int64-like from BIGINT, float, double, bool, string from CHAR/VARCHAR, bytes from
 * BINARY/VARBINARY, enums from CHAR/VARCHAR (name) or INT (number), messages from ROW, repeated fields from
 * ARRAY and maps from MAP.
 */
final class PbWriterPlan {
    private final String nullLiteral;

    PbWriterPlan(String nullLiteral) {
        this.nullLiteral = nullLiteral;
    }

    /** The fields of {@code message} the columns of {@code row} set; {@code prefix}: path plus a dot, or empty. */
    PbMessageFields fields(String prefix, Descriptor message, RowType row) {
        int n = row.getFieldCount();
        List<PbWriter> writers = new ArrayList<>(n);
        List<FieldDescriptor> fds = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            String name = row.getFieldNames().get(c);
            FieldDescriptor fd = message.findFieldByName(name);
            if (fd == null) {
                throw new IllegalArgumentException("column '" + prefix + name + "': protobuf message "
                        + message.getFullName() + " has no field of that name");
            }
            fds.add(fd);
            writers.add(field(prefix + name, fd, row.getTypeAt(c)));
        }
        int[] byNumber = IntStream.range(0, n).boxed()
                .sorted(Comparator.comparingInt(c -> fds.get(c).getNumber())).mapToInt(Integer::intValue).toArray();
        int[][] overriddenBy = new int[n][];
        for (int c = 0; c < n; c++) {
            OneofDescriptor oneof = fds.get(c).getRealContainingOneof();
            int column = c;
            overriddenBy[c] = oneof == null ? new int[0] : IntStream.range(c + 1, n)
                    .filter(later -> oneof.equals(fds.get(later).getRealContainingOneof())).toArray();
            if (IntStream.range(0, c).anyMatch(earlier -> fds.get(earlier).equals(fds.get(column)))) {
                throw new IllegalArgumentException("column '" + prefix + row.getFieldNames().get(c)
                        + "': protobuf field set by two columns");
            }
        }
        String missingRequired = message.getFields().stream()
                .filter(fd -> fd.isRequired() && !fds.contains(fd)).map(FieldDescriptor::getName)
                .findFirst().orElse(null);
        String anyRequired = message.getFields().stream().filter(FieldDescriptor::isRequired)
                .map(FieldDescriptor::getName).findFirst().orElse(null);
        return new PbMessageFields(prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1), writers,
                byNumber, overriddenBy, missingRequired, anyRequired);
    }

    private PbWriter field(String path, FieldDescriptor fd, LogicalType type) {
        if (fd.isMapField()) {
            PbColumnTypes.requireCollection(path, fd, type);
            MapType map = (MapType) type;
            Descriptor entry = fd.getMessageType();
            FieldDescriptor keyFd = entry.findFieldByName("key");
            FieldDescriptor valueFd = entry.findFieldByName("value");
            return new PbMapWriter(path, PbField.element(fd),
                    single(path + ".key", keyFd, map.getKeyType(), PbField.element(keyFd)),
                    single(path + ".value", valueFd, map.getValueType(), PbField.element(valueFd)));
        }
        if (fd.isRepeated()) {
            PbColumnTypes.requireCollection(path, fd, type);
            PbWriter elements = single(path + "[]", fd, ((ArrayType) type).getElementType(), PbField.element(fd));
            return new PbRepeatedWriter(path, fd.isPacked() ? PbField.packed(fd) : PbField.element(fd), elements,
                    fd.isPacked());
        }
        return single(path, fd, type, PbField.of(fd));
    }

    private PbWriter single(String path, FieldDescriptor fd, LogicalType type, PbField field) {
        PbColumnTypes.requireSingle(path, fd, type);
        switch (fd.getJavaType()) {
            case INT:
                return new PbNumberWriter(path, field, fd.getType(), 4);
            case LONG:
                return new PbNumberWriter(path, field, fd.getType(), 8);
            case FLOAT:
                return new PbFloatWriter(path, field, 4);
            case DOUBLE:
                return new PbFloatWriter(path, field, 8);
            case BOOLEAN:
                return new PbBoolWriter(path, field);
            case STRING:
                return new PbBytesWriter(path, field, true, nullLiteral);
            case BYTE_STRING:
                return new PbBytesWriter(path, field, false, nullLiteral);
            case ENUM:
                return new PbEnumWriter(path, field, fd.getEnumType(), PbColumnTypes.enumByName(type));
            default: // MESSAGE: requireSingle admits nothing else
                return new PbMessageWriter(path, field, fields(path + ".", fd.getMessageType(), (RowType) type));
        }
    }
}
