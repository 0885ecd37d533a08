package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Which Flink type a column may have for a protobuf field, for the encoder and the decoder alike: Flink's
 * pairs (int32-like fields as INT, int64-like as BIGINT, float, double, bool, string as CHAR/VARCHAR, bytes as
 * BINARY/VARBINARY, enums as CHAR/VARCHAR by name or INT by number, messages as ROW, repeated fields as ARRAY,
 * maps as MAP). Flink's reader also takes an enum as TINYINT, SMALLINT or BIGINT, but its rows then hold an
 * {@code Integer} where those types need another class; such a column is refused.
 */
final class PbColumnTypes {
    private PbColumnTypes() {}

    /** Checks the column type of a map field ({@code MAP}) or repeated field ({@code ARRAY}). */
    static void requireCollection(String path, FieldDescriptor fd, LogicalType type) {
        if (fd.isMapField()) {
            require(path, fd, type, type.getTypeRoot() == LogicalTypeRoot.MAP, "MAP");
        } else {
            require(path, fd, type, type.getTypeRoot() == LogicalTypeRoot.ARRAY, "ARRAY");
        }
    }

    /** Checks the type of a single value of {@code fd} (a singular field, an element, a map key or value). */
    static void requireSingle(String path, FieldDescriptor fd, LogicalType type) {
        LogicalTypeRoot root = type.getTypeRoot();
        boolean text = root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR;
        switch (fd.getJavaType()) {
            case INT:
                require(path, fd, type, root == LogicalTypeRoot.INTEGER, "INT");
                return;
            case LONG:
                require(path, fd, type, root == LogicalTypeRoot.BIGINT, "BIGINT");
                return;
            case FLOAT:
                require(path, fd, type, root == LogicalTypeRoot.FLOAT, "FLOAT");
                return;
            case DOUBLE:
                require(path, fd, type, root == LogicalTypeRoot.DOUBLE, "DOUBLE");
                return;
            case BOOLEAN:
                require(path, fd, type, root == LogicalTypeRoot.BOOLEAN, "BOOLEAN");
                return;
            case STRING:
                require(path, fd, type, text, "CHAR or VARCHAR");
                return;
            case BYTE_STRING:
                require(path, fd, type, root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY,
                        "BINARY or VARBINARY");
                return;
            case ENUM:
                require(path, fd, type, text || root == LogicalTypeRoot.INTEGER, "CHAR, VARCHAR or INT");
                return;
            case MESSAGE:
                require(path, fd, type, root == LogicalTypeRoot.ROW && fd.getType() == FieldDescriptor.Type.MESSAGE,
                        "ROW");
                return;
            default:
                throw new IllegalArgumentException(
                        "column '" + path + "': protobuf field type " + fd.getType() + " is not supported");
        }
    }

    /** True if an enum column holds names (CHAR/VARCHAR) rather than numbers. */
    static boolean enumByName(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.CHAR || type.getTypeRoot() == LogicalTypeRoot.VARCHAR;
    }

    private static void require(String path, FieldDescriptor fd, LogicalType type, boolean ok, String expected) {
        if (!ok) {
            throw new IllegalArgumentException("column '" + path + "': protobuf field " + fd.getFullName() + " ("
                    + (fd.isMapField() ? "map" : fd.isRepeated() ? "repeated " + fd.getType() : fd.getType())
                    + ") needs " + expected + ", not " + type.asSummaryString());
        }
    }
}
