package io.columnarkafka.format.json;

import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/** Chooses the reader for each Flink type, once, when a decoder is built. */
final class JsonReaderPlan {
    private final JsonDecodeOptions options;
    private final boolean bigDecimalFloats;
    private final boolean tree;

    /**
     * Readers of Flink's default, streaming deserializer ({@code json}).
     *
     * @param rowType the row Flink's format converts (its fields read or checked): a DECIMAL anywhere in it
     *     changes how Flink reads floats in a tree
     */
    JsonReaderPlan(JsonDecodeOptions options, RowType rowType) {
        this(options, rowType, false);
    }

    /**
     * @param rowType the produced row: a DECIMAL anywhere in it changes how Flink reads floats in a tree
     * @param tree readers of Flink's tree deserializer ({@code JsonRowDataDeserializationSchema}, inside the
     *     changelog formats): each streaming reader behind a {@link TreeJsonReader}, BINARY as {@link
     *     TreeBinaryJsonReader}
     */
    JsonReaderPlan(JsonDecodeOptions options, RowType rowType, boolean tree) {
        this.options = options;
        this.bigDecimalFloats = holdsDecimal(rowType);
        this.tree = tree;
    }

    /** Whether Flink's mapper reads floats as {@code BigDecimal} ({@code USE_BIG_DECIMAL_FOR_FLOATS}) for this row. */
    static boolean holdsDecimal(RowType rowType) {
        return LogicalTypeChecks.hasNested(rowType, t -> t instanceof DecimalType);
    }

    /**
     * The fields of the record: those {@code read} marks are read into vectors, the others checked only
     * ({@link CheckOnlyJsonReader}), as Flink converts every field of the row it is given.
     */
    JsonRowFields recordFields(RowType row, boolean[] read) {
        return fields("", row, read, false);
    }

    /** {@code prefix} is the row's path plus a dot, or empty for the record; {@code read} null: all read. */
    private JsonRowFields fields(String prefix, RowType row, boolean[] read, boolean check) {
        List<JsonReader> readers = new ArrayList<>(row.getFieldCount());
        for (int i = 0; i < row.getFieldCount(); i++) {
            RowType.RowField field = row.getFields().get(i);
            readers.add(reader(prefix + field.getName(), field.getType(), check || read != null && !read[i]));
        }
        return new JsonRowFields(row.getFieldNames(), readers, options.failOnMissingField(), tree);
    }

    /**
     * The reader for a value of {@code type}: one that reads into a vector, or with {@code check} one that
     * only checks ({@link CheckOnlyJsonReader} over the type's reader, whose children check too).
     *
     * @throws IllegalArgumentException for a type Flink's JSON format or the Arrow layout does not support
     */
    private JsonReader reader(String path, LogicalType type, boolean check) {
        JsonReader reader = typeReader(path, type, check);
        return check ? new CheckOnlyJsonReader(reader) : reader;
    }

    private JsonReader typeReader(String path, LogicalType type, boolean check) {
        if (!tree) {
            return streamingReader(path, type, check);
        }
        if (type.is(LogicalTypeFamily.BINARY_STRING)) {
            return new TreeBinaryJsonReader(path, options.ignoreParseErrors());
        }
        return new TreeJsonReader(streamingReader(path, type, check), type.getTypeRoot(), bigDecimalFloats);
    }

    private JsonReader streamingReader(String path, LogicalType type, boolean check) {
        boolean ignore = options.ignoreParseErrors();
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanJsonReader(path, ignore);
            case TINYINT:
                return new IntegerJsonReader(path, ignore, IntegerJsonReader.Kind.TINYINT);
            case SMALLINT:
                return new IntegerJsonReader(path, ignore, IntegerJsonReader.Kind.SMALLINT);
            case INTEGER:
                return new IntegerJsonReader(path, ignore, IntegerJsonReader.Kind.INT);
            case BIGINT:
                return new IntegerJsonReader(path, ignore, IntegerJsonReader.Kind.BIGINT);
            case FLOAT:
                return new FloatingJsonReader(path, ignore, true);
            case DOUBLE:
                return new FloatingJsonReader(path, ignore, false);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new DecimalJsonReader(path, ignore, decimal.getPrecision(), decimal.getScale());
            case CHAR:
            case VARCHAR:
                return new StringJsonReader(path, ignore, bigDecimalFloats);
            case BINARY:
            case VARBINARY:
                return new BinaryJsonReader(path, ignore);
            case DATE:
                return new DateJsonReader(path, ignore);
            case TIME_WITHOUT_TIME_ZONE:
                return new TimeJsonReader(path, ignore);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new TimestampJsonReader(path, ignore, iso(), false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new TimestampJsonReader(path, ignore, iso(), true);
            case ARRAY:
                return new ArrayJsonReader(path, ignore,
                        reader(path + "[]", ((ArrayType) type).getElementType(), check));
            case ROW:
                return new StructJsonReader(path, ignore, fields(path + ".", (RowType) type, null, check));
            case MAP:
                MapType map = (MapType) type;
                return mapReader(path, map, map.getKeyType(), map.getValueType(), check);
            case MULTISET:
                MultisetType multiset = (MultisetType) type;
                return mapReader(path, multiset, multiset.getElementType(),
                        new org.apache.flink.table.types.logical.IntType(), check);
            default:
                // ArrowLayout names the type that has no Arrow layout.
                ArrowLayout.field(path, type);
                throw new IllegalArgumentException(
                        "column '" + path + "': JSON format does not support " + type.asSummaryString());
        }
    }

    private JsonReader mapReader(String path, LogicalType mapType, LogicalType keyType, LogicalType valueType,
                                 boolean check) {
        if (!keyType.is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new IllegalArgumentException("column '" + path + "': JSON format doesn't support non-string"
                    + " as key type of map. The type is: " + mapType.asSummaryString());
        }
        JsonReader key = reader(path + ".key", keyType, check);
        return new MapJsonReader(path, options.ignoreParseErrors(), key, reader(path + ".value", valueType, check),
                holdsMaps(valueType), tree);
    }

    /** Whether values of {@code type} hold a MAP or MULTISET, at any depth. */
    private static boolean holdsMaps(LogicalType type) {
        if (type.is(LogicalTypeRoot.MAP) || type.is(LogicalTypeRoot.MULTISET)) {
            return true;
        }
        for (LogicalType child : type.getChildren()) {
            if (holdsMaps(child)) {
                return true;
            }
        }
        return false;
    }

    private boolean iso() {
        return options.timestampFormat() == JsonFormatOptions.TimestampFormat.ISO_8601;
    }
}
