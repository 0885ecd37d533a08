package io.columnarkafka.format.arrow;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
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
        return fromArrow(columns, type, row, Mode.PLAIN);
    }

    /**
     * The decoder comparison form of row {@code row} of a decoded batch: as {@link #fromArrow}, except that
     * timestamps are exact ({@code millis+nanoOfMillis}, from the Arrow unit or the millis + nanos layout
     * without loss) and maps are
     * sorted by key (Flink's decoder builds a {@code HashMap}: its entries have no order). Compare with
     * {@link #decodedFromFlink}.
     */
    public static List<Object> decodedFromArrow(VectorSchemaRoot root, RowType type, int row) {
        return fromArrow(root.getFieldVectors(), type, row, Mode.DECODED);
    }

    /**
     * As {@link #decodedFromArrow}, maps in their entry order, for decoders that reproduce the iteration
     * order of Flink's {@code HashMap}. Compare with {@link #decodedFromFlinkInMapOrder}.
     */
    public static List<Object> decodedFromArrowInMapOrder(VectorSchemaRoot root, RowType type, int row) {
        return fromArrow(root.getFieldVectors(), type, row, Mode.DECODED_IN_MAP_ORDER);
    }

    private static List<Object> fromArrow(List<FieldVector> columns, RowType type, int row, Mode mode) {
        List<Object> out = new ArrayList<>();
        // Columns after the type's fields (a changelog decoder's row-kind column) are not values of it.
        for (int i = 0; i < type.getFieldCount(); i++) {
            out.add(fromArrow(columns.get(i), type.getTypeAt(i), row, mode));
        }
        return out;
    }

    static Object fromArrow(FieldVector vector, LogicalType type, int i) {
        return fromArrow(vector, type, i, Mode.PLAIN);
    }

    private static Object fromArrow(FieldVector vector, LogicalType type, int i, Mode mode) {
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
                if (vector instanceof FixedSizeBinaryVector wide) { // Flink's pair, little-endian
                    ByteBuffer pair = ByteBuffer.wrap(wide.get(i)).order(ByteOrder.LITTLE_ENDIAN);
                    return exact(pair.getLong(), pair.getInt());
                }
                long value = ((TimeStampVector) vector).get(i);
                return mode.decoded ? exactTimestamp(value, ((ArrowType.Timestamp) vector.getField().getType()).getUnit())
                        : value;
            }
            case ARRAY: {
                ListVector list = (ListVector) vector;
                LogicalType element = ((ArrayType) type).getElementType();
                List<Object> out = new ArrayList<>();
                for (int k = list.getElementStartIndex(i); k < list.getElementEndIndex(i); k++) {
                    out.add(fromArrow(list.getDataVector(), element, k, mode));
                }
                return out;
            }
            case ROW: {
                StructVector struct = (StructVector) vector;
                RowType row = (RowType) type;
                List<Object> out = new ArrayList<>();
                for (int f = 0; f < row.getFieldCount(); f++) {
                    out.add(fromArrow((FieldVector) struct.getChildByOrdinal(f), row.getTypeAt(f), i, mode));
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
                            fromArrow((FieldVector) entries.getChildByOrdinal(0), keyType(type), k, mode),
                            fromArrow((FieldVector) entries.getChildByOrdinal(1), valueType(type), k, mode)));
                }
                return mode.sortMaps ? sortedByKey(out) : out;
            }
            default:
                throw new AssertionError(type);
        }
    }

    public static List<Object> fromFlink(RowData row, RowType type) {
        return fromFlink(row, type, Mode.PLAIN);
    }

    /**
     * The decoder comparison form of a row Flink's deserializer returned (see {@link #decodedFromArrow}):
     * strings as the UTF-8 bytes Flink's {@code StringData} holds (an unpaired surrogate is {@code ?}), and
     * timestamps exactly as Flink's row holds them (json and csv: every digit of the text; avro's values have
     * none below their Arrow unit).
     */
    public static List<Object> decodedFromFlink(RowData row, RowType type) {
        return fromFlink(row, type, Mode.DECODED);
    }

    /** As {@link #decodedFromFlink}, maps in the order their {@code keyArray()} and {@code valueArray()} give. */
    public static List<Object> decodedFromFlinkInMapOrder(RowData row, RowType type) {
        return fromFlink(row, type, Mode.DECODED_IN_MAP_ORDER);
    }

    /** What a comparison form keeps: plain values, or the decoder comparison's, with maps sorted or in order. */
    private enum Mode {
        PLAIN(false, false),
        DECODED(true, true),
        DECODED_IN_MAP_ORDER(true, false);

        final boolean decoded;
        final boolean sortMaps;

        Mode(boolean decoded, boolean sortMaps) {
            this.decoded = decoded;
            this.sortMaps = sortMaps;
        }
    }

    private static List<Object> fromFlink(RowData row, RowType type, Mode mode) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            out.add(fromFlink(RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row),
                    type.getTypeAt(i), mode));
        }
        return out;
    }

    static Object fromFlink(Object value, LogicalType type) {
        return fromFlink(value, type, Mode.PLAIN);
    }

    private static Object fromFlink(Object value, LogicalType type, Mode mode) {
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
                return mode.decoded ? new String(((StringData) value).toBytes(), StandardCharsets.UTF_8)
                        : ((StringData) value).toString();
            case BINARY:
            case VARBINARY:
                return HexFormat.of().formatHex((byte[]) value);
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                int precision = ((TimestampType) type).getPrecision();
                return mode.decoded ? exact((TimestampData) value) : epoch((TimestampData) value, precision);
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((LocalZonedTimestampType) type).getPrecision();
                return mode.decoded ? exact((TimestampData) value) : epoch((TimestampData) value, precision);
            }
            case ARRAY: {
                ArrayData array = (ArrayData) value;
                LogicalType element = ((ArrayType) type).getElementType();
                ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
                List<Object> out = new ArrayList<>();
                for (int k = 0; k < array.size(); k++) {
                    out.add(fromFlink(getter.getElementOrNull(array, k), element, mode));
                }
                return out;
            }
            case ROW:
                return fromFlink((RowData) value, (RowType) type, mode);
            case MAP:
            case MULTISET: {
                MapData map = (MapData) value;
                ArrayData.ElementGetter keys = ArrayData.createElementGetter(keyType(type));
                ArrayData.ElementGetter values = ArrayData.createElementGetter(valueType(type));
                List<Object> out = new ArrayList<>();
                for (int k = 0; k < map.size(); k++) {
                    out.add(Arrays.asList(
                            fromFlink(keys.getElementOrNull(map.keyArray(), k), keyType(type), mode),
                            fromFlink(values.getElementOrNull(map.valueArray(), k), valueType(type), mode)));
                }
                return mode.sortMaps ? sortedByKey(out) : out;
            }
            default:
                return value; // Boolean, Float, Double, DATE and TIME ints
        }
    }

    /** A timestamp exactly: epoch milliseconds and the nanoseconds within the millisecond. */
    public static String exact(long millis, int nanoOfMillisecond) {
        return millis + "ms+" + nanoOfMillisecond + "ns";
    }

    /** An Arrow timestamp value of {@code unit}, exactly (no digit lost). */
    static String exactTimestamp(long value, TimeUnit unit) {
        switch (unit) {
            case SECOND:
                return exact(value * 1000, 0);
            case MILLISECOND:
                return exact(value, 0);
            case MICROSECOND:
                return exact(Math.floorDiv(value, 1000L), (int) Math.floorMod(value, 1000L) * 1000);
            default:
                return exact(Math.floorDiv(value, 1_000_000L), (int) Math.floorMod(value, 1_000_000L));
        }
    }

    /** Flink's {@code TimestampData} exactly, as {@link #exact(long, int)}. */
    public static String exact(TimestampData t) {
        return exact(t.getMillisecond(), t.getNanoOfMillisecond());
    }

    private static List<Object> sortedByKey(List<Object> entries) {
        List<Object> sorted = new ArrayList<>(entries);
        // A null key first, on its own: String.valueOf(null) would tie it with the key "null", and a tie keeps
        // each side's hash order, which differs.
        sorted.sort(java.util.Comparator.comparing(e -> ((List<?>) e).get(0),
                java.util.Comparator.nullsFirst(java.util.Comparator.comparing(String::valueOf))));
        return sorted;
    }

    /** The epoch value in the Arrow unit of the precision, computed through {@link Instant}. */
    private static long epoch(TimestampData timestamp, int precision) {
        Instant instant = timestamp.toInstant();
        switch (ArrowLayout.timeUnit(precision)) {
            case MILLISECOND:
                return instant.toEpochMilli();
            case MICROSECOND:
                return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
            default:
                return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        }
    }

    private static LogicalType keyType(LogicalType type) {
        return type instanceof MapType map ? map.getKeyType() : ((MultisetType) type).getElementType();
    }

    private static LogicalType valueType(LogicalType type) {
        return type instanceof MapType map ? map.getValueType() : new IntType(false);
    }
}
