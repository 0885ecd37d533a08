package io.columnarkafka.flink.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Nullable copies of types. Flink's format serializers write a null for any null value whatever the
 * declared nullability (every converter is wrapped in a null check), and a NOT NULL declaration is
 * enforced by the planner only on top-level columns; so the columnar path carries and encodes every
 * column and nested field as nullable to write the same bytes for the same rows.
 */
final class NullableTypes {
    private NullableTypes() {}

    static RowType deep(RowType type) {
        return (RowType) deep((LogicalType) type);
    }

    static LogicalType deep(LogicalType type) {
        switch (type.getTypeRoot()) {
            case ROW:
                List<RowType.RowField> fields = new ArrayList<>();
                for (RowType.RowField f : ((RowType) type).getFields()) {
                    fields.add(new RowType.RowField(f.getName(), deep(f.getType()), f.getDescription().orElse(null)));
                }
                return new RowType(true, fields);
            case ARRAY:
                return new ArrayType(true, deep(((ArrayType) type).getElementType()));
            case MAP:
                MapType map = (MapType) type;
                return new MapType(true, deep(map.getKeyType()), deep(map.getValueType()));
            case MULTISET:
                return new MultisetType(true, deep(((MultisetType) type).getElementType()));
            default:
                return type.copy(true);
        }
    }

    /** True if {@code type} or anything nested in it has the given root. */
    static boolean contains(LogicalType type, java.util.function.Predicate<LogicalType> test) {
        if (test.test(type)) {
            return true;
        }
        for (LogicalType child : type.getChildren()) {
            if (contains(child, test)) {
                return true;
            }
        }
        return false;
    }
}
