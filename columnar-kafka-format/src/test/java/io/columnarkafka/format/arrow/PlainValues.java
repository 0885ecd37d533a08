package io.columnarkafka.format.arrow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Test-side comparison form of a value: Java boxes, {@code BigDecimal}, strings, hex for bytes, epoch
 * values in the Arrow unit for timestamps, lists for arrays and rows, lists of [key, value] pairs for maps
 * (so order, duplicates and null keys stay visible). One side reads Arrow through Arrow's own getters, the
 * other reads Flink internal data; both are independent of {@link RowDataArrowWriter}.
 */
public final class PlainValues {
    private PlainValues() {}

    static List<Object> fromArrow(List<FieldVector> columns, RowType type, int row) {
        return fromArrow(columns, type, row, false);
    }

    /**
     * Row {@code row} of {@code columns}; with {@code exactTimestamps} timestamps are {@link Instant}s
     * (compare with {@link #fromFlink(RowData, RowType, boolean)}), so a Flink value finer than the
     * column's Arrow unit shows up as a difference instead of being truncated on both sides, and Flink
     * strings are read from their UTF-8 bytes.
     */
    public static List<Object> fromArrow(List<FieldVector> columns, RowType type, int row, boolean exactTimestamps) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            out.add(fromArrow(columns.get(i), type.getTypeAt(i), row, exactTimestamps));
        }
        return out;
    }

    static Object fromArrow(FieldVector vector, LogicalType type, int i) {
        return fromArrow(vector, type, i, false);
    }

    private static Object fromArrow(FieldVector vector, LogicalType type, int i, boolean exact) {
        if (vector.isNull(i)) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ((BitVector) vector).get(i) == 1;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                return ((BaseIntVector) vector).getValueAsLong(i);
            case FLOAT:
                return ((Float4Vector) vector).get(i);
            case DOUBLE:
                return ((Float8Vector) vector).get(i);
            case DECIMAL:
                return ((DecimalVector) vector).getObject(i);
            case CHAR:
            case VARCHAR:
                return ((VarCharVector) vector).getObject(i).toString();
            case BINARY:
            case VARBINARY:
                return HexFormat.of().formatHex(((VarBinaryVector) vector).get(i));
            case DATE:
                return ((DateDayVector) vector).get(i);
            case TIME_WITHOUT_TIME_ZONE:
                return ((TimeMilliVector) vector).get(i);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                long value = ((TimeStampVector) vector).get(i);
                return exact ? instant(value, ArrowLayout.timeUnit(precision(type))) : value;
            }
            case ARRAY: {
                ListVector list = (ListVector) vector;
                LogicalType element = ((ArrayType) type).getElementType();
                List<Object> out = new ArrayList<>();
                for (int k = list.getElementStartIndex(i); k < list.getElementEndIndex(i); k++) {
                    out.add(fromArrow(list.getDataVector(), element, k, exact));
                }
                return out;
            }
            case ROW: {
                StructVector struct = (StructVector) vector;
                RowType row = (RowType) type;
                List<Object> out = new ArrayList<>();
                for (int f = 0; f < row.getFieldCount(); f++) {
                    out.add(fromArrow((FieldVector) struct.getChildByOrdinal(f), row.getTypeAt(f), i, exact));
                }
                return out;
            }
            case MAP:
            case MULTISET: {
                MapVector map = (MapVector) vector;
                StructVector entries = (StructVector) map.getDataVector();
                List<Object> out = new ArrayList<>();
                for (int k = map.getElementStartIndex(i); k < map.getElementEndIndex(i); k++) {
                    out.add(Arrays.asList(
                            fromArrow((FieldVector) entries.getChildByOrdinal(0), keyType(type), k, exact),
                            fromArrow((FieldVector) entries.getChildByOrdinal(1), valueType(type), k, exact)));
                }
                return out;
            }
            default:
                throw new AssertionError(type);
        }
    }

    public static List<Object> fromFlink(RowData row, RowType type) {
        return fromFlink(row, type, false);
    }

    /** The fields of {@code row}; with {@code exactTimestamps} timestamps are {@link Instant}s at full precision. */
    public static List<Object> fromFlink(RowData row, RowType type, boolean exactTimestamps) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            out.add(fromFlink(RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row),
                    type.getTypeAt(i), exactTimestamps));
        }
        return out;
    }

    static Object fromFlink(Object value, LogicalType type) {
        return fromFlink(value, type, false);
    }

    private static Object fromFlink(Object value, LogicalType type, boolean exact) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                return ((Number) value).longValue();
            case DECIMAL:
                return ((DecimalData) value).toBigDecimal();
            case CHAR:
            case VARCHAR:
                // A StringData made from a Java String keeps that String (lone surrogates and all), while the
                // row Flink hands on carries its UTF-8 bytes: decoders are compared on the bytes.
                return exact ? new String(((StringData) value).toBytes(), java.nio.charset.StandardCharsets.UTF_8)
                        : ((StringData) value).toString();
            case BINARY:
            case VARBINARY:
                return HexFormat.of().formatHex((byte[]) value);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return exact ? ((TimestampData) value).toInstant() : epoch((TimestampData) value, precision(type));
            case ARRAY: {
                ArrayData array = (ArrayData) value;
                LogicalType element = ((ArrayType) type).getElementType();
                ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
                List<Object> out = new ArrayList<>();
                for (int k = 0; k < array.size(); k++) {
                    out.add(fromFlink(getter.getElementOrNull(array, k), element, exact));
                }
                return out;
            }
            case ROW:
                return fromFlink((RowData) value, (RowType) type, exact);
            case MAP:
            case MULTISET: {
                MapData map = (MapData) value;
                ArrayData.ElementGetter keys = ArrayData.createElementGetter(keyType(type));
                ArrayData.ElementGetter values = ArrayData.createElementGetter(valueType(type));
                List<Object> out = new ArrayList<>();
                for (int k = 0; k < map.size(); k++) {
                    out.add(Arrays.asList(
                            fromFlink(keys.getElementOrNull(map.keyArray(), k), keyType(type), exact),
                            fromFlink(values.getElementOrNull(map.valueArray(), k), valueType(type), exact)));
                }
                return out;
            }
            default:
                return value; // Boolean, Float, Double, DATE and TIME ints
        }
    }

    /** The epoch value in the Arrow unit of the precision, computed through {@link Instant}. */
    private static long epoch(TimestampData timestamp, int precision) {
        Instant instant = timestamp.toInstant();
        switch (ArrowLayout.timeUnit(precision)) {
            case SECOND:
                return instant.getEpochSecond();
            case MILLISECOND:
                return instant.toEpochMilli();
            case MICROSECOND:
                return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
            default:
                return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        }
    }

    /** The instant an epoch value in {@code unit} stands for. */
    private static Instant instant(long value, org.apache.arrow.vector.types.TimeUnit unit) {
        switch (unit) {
            case SECOND:
                return Instant.ofEpochSecond(value);
            case MILLISECOND:
                return Instant.ofEpochMilli(value);
            case MICROSECOND:
                return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L);
            default:
                return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000_000L), Math.floorMod(value, 1_000_000_000L));
        }
    }

    private static int precision(LogicalType type) {
        return type instanceof TimestampType t ? t.getPrecision() : ((LocalZonedTimestampType) type).getPrecision();
    }

    private static LogicalType keyType(LogicalType type) {
        return type instanceof MapType map ? map.getKeyType() : ((MultisetType) type).getElementType();
    }

    private static LogicalType valueType(LogicalType type) {
        return type instanceof MapType map ? map.getValueType() : new IntType(false);
    }
}
