package io.columnarkafka.format.arrow;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.EncodeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The Arrow layout a Flink row type is carried in: the one place that says which Arrow type holds which
 * Flink logical type. Encoders, the row-to-Arrow transposer, the CLI and the benchmarks all use it.
 *
 * <table>
 *   <caption>Flink logical type to Arrow type</caption>
 *   <tr><th>Flink</th><th>Arrow</th><th>also accepted</th></tr>
 *   <tr><td>BOOLEAN</td><td>Bool</td><td></td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, BIGINT</td><td>signed Int 8, 16, 32, 64</td><td></td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>FloatingPoint SINGLE, DOUBLE</td><td></td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>Decimal(p,s,128)</td><td></td></tr>
 *   <tr><td>CHAR, VARCHAR</td><td>Utf8</td><td>LargeUtf8</td></tr>
 *   <tr><td>BINARY, VARBINARY</td><td>Binary</td><td>LargeBinary</td></tr>
 *   <tr><td>DATE</td><td>Date(DAY)</td><td></td></tr>
 *   <tr><td>TIME(p)</td><td>Time(MILLISECOND, 32)</td><td></td></tr>
 *   <tr><td>INTERVAL YEAR TO MONTH (all resolutions)</td><td>Interval(YEAR_MONTH): Flink's int of months</td><td></td></tr>
 *   <tr><td>INTERVAL DAY TO SECOND (all resolutions)</td><td>Duration(MILLISECOND): Flink's long of milliseconds</td><td></td></tr>
 *   <tr><td>TIMESTAMP(p)</td><td>Timestamp(unit, no zone)</td><td>FixedSizeBinary(12) for p 7–9 ({@link WideTimestamps})</td></tr>
 *   <tr><td>TIMESTAMP_LTZ(p)</td><td>Timestamp(unit, "UTC")</td><td>FixedSizeBinary(12) for p 7–9</td></tr>
 *   <tr><td>ARRAY&lt;T&gt;</td><td>List&lt;T&gt;</td><td>LargeList&lt;T&gt;</td></tr>
 *   <tr><td>ROW&lt;...&gt;</td><td>Struct&lt;...&gt;</td><td></td></tr>
 *   <tr><td>MAP&lt;K,V&gt;</td><td>Map&lt;K,V&gt;</td><td></td></tr>
 *   <tr><td>MULTISET&lt;T&gt;</td><td>Map&lt;T, Int32&gt;</td><td></td></tr>
 * </table>
 *
 * <p>The timestamp unit follows what Flink's {@code BinaryRowData} keeps of a precision: MILLISECOND for
 * 0–3 (a compact timestamp is epoch milliseconds, so a TIMESTAMP(0) keeps the milliseconds Flink's json,
 * csv and avro deserializers put in it), MICROSECOND for 4–6, NANOSECOND for 7–9. Columns are matched
 * by position; names are not compared.
 *
 * <p>Arrow's 64-bit nanoseconds reach only 1677-09-21 .. 2262-04-11, Flink's {@code TimestampData} year
 * 0001 .. 9999. A batch may therefore carry a precision 7–9 column in the {@link WideTimestamps} layout
 * instead ({@link NanoTimestamps#EPOCH_MILLIS_AND_NANOS}: Flink's own epoch millis plus nanos of the
 * milli), which every encoder reads; the SQL sink writes it, so it admits Flink's whole range.
 */
public final class ArrowLayout {
    /** Child names Arrow Java itself uses for list elements and map entries. */
    static final String LIST_ELEMENT = "element";
    static final String MAP_ENTRIES = "entries";
    static final String MAP_KEY = "key";
    static final String MAP_VALUE = "value";

    /** How a batch carries TIMESTAMP(7–9) and TIMESTAMP_LTZ(7–9) values, at any depth. */
    public enum NanoTimestamps {
        /** Arrow Timestamp(NANOSECOND): 1677-09-21 .. 2262-04-11 only; the layout of {@link #schema(RowType)}. */
        ARROW_NANOSECOND,
        /** {@link WideTimestamps}: epoch millis plus nanos of the milli, Flink's whole range. */
        EPOCH_MILLIS_AND_NANOS,
        /**
         * {@link WideTimestamps} for every TIMESTAMP and TIMESTAMP_LTZ, precision 0–9: what Flink's json and
         * csv rows hold before any binary row (every fraction digit of the text, whatever the precision),
         * which their serializers write out as it is. The SQL sink writes this layout.
         */
        EVERY_PRECISION_MILLIS_AND_NANOS
    }

    private ArrowLayout() {}

    /** The Arrow schema that carries batches of {@code rowType}. */
    public static Schema schema(RowType rowType) {
        return schema(rowType, NanoTimestamps.ARROW_NANOSECOND);
    }

    /** The Arrow schema that carries batches of {@code rowType}, nanosecond timestamps as {@code nanos} says. */
    public static Schema schema(RowType rowType, NanoTimestamps nanos) {
        List<Field> fields = new ArrayList<>(rowType.getFieldCount());
        for (RowType.RowField field : rowType.getFields()) {
            fields.add(field(field.getName(), field.getType(), nanos));
        }
        return new Schema(fields);
    }

    /** The Arrow field that carries a column of {@code type}. */
    public static Field field(String name, LogicalType type) {
        return field(name, type, NanoTimestamps.ARROW_NANOSECOND);
    }

    /** The Arrow field that carries a column of {@code type}, timestamps as {@code nanos} says. */
    public static Field field(String name, LogicalType type, NanoTimestamps nanos) {
        boolean wide = nanos == NanoTimestamps.EPOCH_MILLIS_AND_NANOS ? WideTimestamps.applies(type)
                : nanos == NanoTimestamps.EVERY_PRECISION_MILLIS_AND_NANOS && WideTimestamps.isTimestamp(type);
        ArrowType arrowType = wide ? WideTimestamps.ARROW_TYPE : arrowType(name, type);
        FieldType fieldType = new FieldType(type.isNullable(), arrowType, null);
        return new Field(name, fieldType, children(type, nanos));
    }

    private static List<Field> children(LogicalType type, NanoTimestamps nanos) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return List.of(field(LIST_ELEMENT, ((ArrayType) type).getElementType(), nanos));
            case ROW:
                return schema((RowType) type, nanos).getFields();
            case MAP:
                MapType map = (MapType) type;
                return List.of(entries(map.getKeyType(), map.getValueType(), nanos));
            case MULTISET:
                return List.of(entries(
                        ((MultisetType) type).getElementType(),
                        new org.apache.flink.table.types.logical.IntType(false), nanos));
            default:
                return List.of();
        }
    }

    /**
     * The key field is non-nullable whatever the Flink key type says: the Arrow format requires it and Arrow
     * Java's {@code MapVector} refuses to create a map with a nullable key field. A null Flink key is
     * carried as an unset validity bit in the key vector (see {@code RowDataArrowWriter}).
     */
    private static Field entries(LogicalType key, LogicalType value, NanoTimestamps nanos) {
        return new Field(
                MAP_ENTRIES,
                FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(field(MAP_KEY, key.copy(false), nanos), field(MAP_VALUE, value, nanos)));
    }

    private static ArrowType arrowType(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case TINYINT:
                return new ArrowType.Int(8, true);
            case SMALLINT:
                return new ArrowType.Int(16, true);
            case INTEGER:
                return new ArrowType.Int(32, true);
            case BIGINT:
                return new ArrowType.Int(64, true);
            case FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
            case CHAR:
            case VARCHAR:
                return ArrowType.Utf8.INSTANCE;
            case BINARY:
            case VARBINARY:
                return ArrowType.Binary.INSTANCE;
            case DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case TIME_WITHOUT_TIME_ZONE:
                return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case INTERVAL_YEAR_MONTH:
                return new ArrowType.Interval(IntervalUnit.YEAR_MONTH);
            case INTERVAL_DAY_TIME:
                return new ArrowType.Duration(TimeUnit.MILLISECOND);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new ArrowType.Timestamp(timeUnit(((TimestampType) type).getPrecision()), null);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new ArrowType.Timestamp(
                        timeUnit(((LocalZonedTimestampType) type).getPrecision()), "UTC");
            case ARRAY:
                return ArrowType.List.INSTANCE;
            case ROW:
                return ArrowType.Struct.INSTANCE;
            case MAP:
            case MULTISET:
                return new ArrowType.Map(false);
            default:
                throw new BatchLayoutException(
                        name, "Flink type " + type.asSummaryString() + " has no Arrow layout here");
        }
    }

    /**
     * The Arrow time unit of a timestamp of the given precision: milliseconds up to 3, as Flink's compact
     * {@code TimestampData} (precision 0 included: its binary row keeps the milliseconds, not seconds).
     */
    public static TimeUnit timeUnit(int precision) {
        if (precision <= 3) {
            return TimeUnit.MILLISECOND;
        } else if (precision <= 6) {
            return TimeUnit.MICROSECOND;
        }
        return TimeUnit.NANOSECOND;
    }

    /**
     * A root over {@code columns} of {@code batch}, in that order, sharing their vectors (closing either root frees
     * them): how a consumer reads part of a batch, e.g. the columns before a row-kind column, without a copy.
     */
    public static VectorSchemaRoot select(VectorSchemaRoot batch, int[] columns) {
        List<Field> fields = new ArrayList<>(columns.length);
        List<FieldVector> vectors = new ArrayList<>(columns.length);
        for (int column : columns) {
            FieldVector vector = batch.getVector(column);
            fields.add(vector.getField());
            vectors.add(vector);
        }
        return new VectorSchemaRoot(fields, vectors, batch.getRowCount());
    }

    /**
     * Fails on a null in a top-level NOT NULL column, for sinks that take Arrow batches from users: such a
     * batch does not carry its row type, and the writers would read a null's undefined slot (a SQL job
     * stops such a row before its sink with Flink's NOT NULL enforcer). One null count per NOT NULL
     * column and batch; nested NOT NULL fields are not checked.
     *
     * @throws EncodeException naming the column and the first null row
     */
    public static void checkNotNull(RowType rowType, VectorSchemaRoot batch) {
        checkNotNull(rowType, batch, null, batch.getRowCount());
    }

    /**
     * As {@link #checkNotNull(RowType, VectorSchemaRoot)}, over the rows that are written only: {@code selection}'s
     * first {@code count} rows (a row a filter dropped may hold anything), or every row when it is null.
     */
    public static void checkNotNull(RowType rowType, VectorSchemaRoot batch, int[] selection, int count) {
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            RowType.RowField field = rowType.getFields().get(i);
            FieldVector vector = batch.getVector(i);
            if (field.getType().isNullable() || vector.getNullCount() == 0) {
                continue;
            }
            int rows = selection == null ? Math.min(batch.getRowCount(), vector.getValueCount()) : count;
            for (int r = 0; r < rows; r++) {
                int row = selection == null ? r : selection[r];
                if (vector.isNull(row)) {
                    throw new EncodeException(field.getName(), row,
                            "null in a column the row type declares " + field.getType().asSummaryString());
                }
            }
        }
    }

    /**
     * Checks that {@code batch} carries {@code rowType}: same column count and, column by column and
     * recursively, the Arrow type of {@link #field} or an accepted alternative.
     *
     * @throws BatchLayoutException naming the column, the expected and the actual Arrow type
     */
    public static void check(RowType rowType, VectorSchemaRoot batch) {
        List<Field> actual = batch.getSchema().getFields();
        if (actual.size() != rowType.getFieldCount()) {
            throw new BatchLayoutException(
                    "*",
                    "batch has " + actual.size() + " columns " + names(actual) + " but the row type "
                            + rowType.asSummaryString() + " has " + rowType.getFieldCount());
        }
        for (int i = 0; i < actual.size(); i++) {
            // getFields(), not getFieldNames(): the latter builds a new list on every call.
            RowType.RowField field = rowType.getFields().get(i);
            check(field.getName(), field.getType(), actual.get(i));
        }
    }

    /** Checks one column; {@code path} names it in errors (nested children as {@code a.b}). */
    public static void check(String path, LogicalType type, Field actual) {
        ArrowType expected = arrowType(path, type);
        ArrowType got = actual.getType();
        if (!accepts(expected, got)) {
            throw new BatchLayoutException(
                    path,
                    "expected Arrow " + expected + " for Flink " + type.asSummaryString()
                            + " but the batch has Arrow " + got);
        }
        List<Field> children = actual.getChildren();
        switch (type.getTypeRoot()) {
            case ARRAY:
                checkChildCount(path, children, 1);
                check(path + "[]", ((ArrayType) type).getElementType(), children.get(0));
                break;
            case ROW:
                RowType row = (RowType) type;
                checkChildCount(path, children, row.getFieldCount());
                for (int i = 0; i < row.getFieldCount(); i++) {
                    RowType.RowField field = row.getFields().get(i);
                    check(path + "." + field.getName(), field.getType(), children.get(i));
                }
                break;
            case MAP:
            case MULTISET:
                checkChildCount(path, children, 1);
                List<Field> kv = children.get(0).getChildren();
                checkChildCount(path, kv, 2);
                LogicalType keyType = type instanceof MapType m ? m.getKeyType()
                        : ((MultisetType) type).getElementType();
                LogicalType valueType = type instanceof MapType m ? m.getValueType()
                        : new org.apache.flink.table.types.logical.IntType(false);
                check(path + ".key", keyType, kv.get(0));
                check(path + ".value", valueType, kv.get(1));
                break;
            default:
                break;
        }
    }

    private static boolean accepts(ArrowType expected, ArrowType got) {
        if (expected.equals(got)) {
            return true;
        }
        return (expected instanceof ArrowType.Utf8 && got instanceof ArrowType.LargeUtf8)
                || (expected instanceof ArrowType.Timestamp && got.equals(WideTimestamps.ARROW_TYPE))
                || (expected instanceof ArrowType.Binary && got instanceof ArrowType.LargeBinary)
                || (expected instanceof ArrowType.List && got instanceof ArrowType.LargeList);
    }

    private static void checkChildCount(String path, List<Field> children, int expected) {
        if (children.size() != expected) {
            throw new BatchLayoutException(
                    path, "expected " + expected + " Arrow child fields but the batch has " + children.size());
        }
    }

    private static List<String> names(List<Field> fields) {
        List<String> names = new ArrayList<>(fields.size());
        for (Field f : fields) {
            names.add(f.getName());
        }
        return names;
    }

    /** True if {@code type} and everything nested in it has an Arrow layout here. */
    public static boolean supports(LogicalType type) {
        try {
            field("f", type);
            return true;
        } catch (BatchLayoutException e) {
            return false;
        }
    }

}
