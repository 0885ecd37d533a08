package io.columnarkafka.format.json;

import io.columnarkafka.format.Projection;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/** Chooses the writer for each Flink type, once, when an encoder is built. */
final class JsonWriterPlan {
    private final JsonFormatOptions options;

    JsonWriterPlan(JsonFormatOptions options) {
        this.options = options;
    }

    /**
     * The writer for a column of {@code type}.
     *
     * @throws IllegalArgumentException for a type JSON or the Arrow layout does not support
     */
    JsonValueWriter writer(String path, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanJsonWriter(path);
            case TINYINT:
                return new TinyIntJsonWriter(path);
            case SMALLINT:
                return new SmallIntJsonWriter(path);
            case INTEGER:
            case INTERVAL_YEAR_MONTH: // Flink writes the int of months
                return new IntJsonWriter(path);
            case BIGINT:
            case INTERVAL_DAY_TIME: // Flink writes the long of milliseconds
                return new BigIntJsonWriter(path);
            case FLOAT:
                return new FloatingJsonWriter(path, true);
            case DOUBLE:
                return new FloatingJsonWriter(path, false);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new DecimalJsonWriter(
                        path, decimal.getPrecision(), decimal.getScale(), options.decimalAsPlainNumber());
            case CHAR:
            case VARCHAR:
                return new Utf8JsonWriter(path);
            case BINARY:
            case VARBINARY:
                return new BinaryJsonWriter(path);
            case DATE:
                return new DateDayJsonWriter(path);
            case TIME_WITHOUT_TIME_ZONE:
                return new TimeMilliJsonWriter(path);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new TimestampJsonWriter(path,
                        ArrowLayout.timeUnit(((TimestampType) type).getPrecision()), false, iso());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new TimestampJsonWriter(path,
                        ArrowLayout.timeUnit(((LocalZonedTimestampType) type).getPrecision()), true, iso());
            case ARRAY:
                return new ListJsonWriter(path, writer(path + "[]", ((ArrayType) type).getElementType()));
            case ROW:
                return new StructJsonWriter(path, fields(path + ".", (RowType) type));
            case MAP:
                MapType map = (MapType) type;
                return mapWriter(path, map, map.getKeyType(), map.getValueType());
            case MULTISET:
                MultisetType multiset = (MultisetType) type;
                return mapWriter(path, multiset, multiset.getElementType(),
                        new org.apache.flink.table.types.logical.IntType(false));
            default:
                // ArrowLayout names the type that has no Arrow layout.
                ArrowLayout.field(path, type);
                throw new IllegalArgumentException(
                        "column '" + path + "': JSON format does not support " + type.asSummaryString());
        }
    }

    /** Writers for the top-level fields of a record: the projection's columns, by their names. */
    JsonFields record(Projection projection) {
        List<String> names = new ArrayList<>(projection.fieldCount());
        List<JsonValueWriter> writers = new ArrayList<>(projection.fieldCount());
        for (int i = 0; i < projection.fieldCount(); i++) {
            names.add(projection.name(i));
            writers.add(writer(projection.name(i), projection.type(i)));
        }
        return new JsonFields(names, writers, options.ignoreNullFields());
    }

    /** Writers for the fields of a nested ROW; {@code prefix} is the row's path plus a dot. */
    JsonFields fields(String prefix, RowType row) {
        List<JsonValueWriter> writers = new ArrayList<>(row.getFieldCount());
        for (int i = 0; i < row.getFieldCount(); i++) {
            writers.add(writer(prefix + row.getFieldNames().get(i), row.getTypeAt(i)));
        }
        return new JsonFields(row.getFieldNames(), writers, options.ignoreNullFields());
    }

    private JsonValueWriter mapWriter(String path, LogicalType mapType, LogicalType keyType, LogicalType valueType) {
        if (!keyType.is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new IllegalArgumentException("column '" + path + "': JSON format doesn't support non-string"
                    + " as key type of map. The type is: " + mapType.asSummaryString());
        }
        return new MapJsonWriter(path, new Utf8JsonWriter(path + ".key", true),
                writer(path + ".value", valueType), options);
    }

    private boolean iso() {
        return options.timestampFormat() == JsonFormatOptions.TimestampFormat.ISO_8601;
    }
}
