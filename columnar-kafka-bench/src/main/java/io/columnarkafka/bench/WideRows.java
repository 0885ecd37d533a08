package io.columnarkafka.bench;

import io.columnarkafka.format.RowTypes;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A wide row mixing every kind of value the JSON encoder has a separate path for: compact and wide
 * decimals, doubles, floats, booleans, dates, both timestamp kinds, a nested row, an array, a map, and
 * nulls at the top level, inside the nested row, in the array and among the map values. The map key
 * is NOT NULL because Arrow's map vector refuses nullable keys.
 *
 * <p>{@link #row(long)} defines the values; {@link #fill} writes the same values into Arrow vectors by
 * reading them back from those rows, so the two sides cannot drift apart. Built once per benchmark
 * trial: neither side is on a measured path.
 */
final class WideRows {
    static final RowType WIDE_TYPE = RowTypes.parse(
            "ROW<id BIGINT, name STRING, amount DECIMAL(10, 2), total DECIMAL(30, 6), ratio DOUBLE,"
                    + " score FLOAT, active BOOLEAN, quantity INT, born DATE, updated TIMESTAMP(3),"
                    + " seen TIMESTAMP_LTZ(6),"
                    + " address ROW<street STRING, city STRING, zip INT>,"
                    + " tags ARRAY<STRING>, counters MAP<STRING NOT NULL, BIGINT>, note STRING>");

    private static final String[] CITIES = {"Zürich", "Berlin", "Lisboa", "Kraków", "Osaka", "Austin"};
    private static final String[] TAGS = {"new", "sale", "gift", "eco", "bulk", "rare", "\"quoted\"", "tab\tbed"};
    private static final long EPOCH_MILLIS_2024 = 1_704_067_200_000L;

    private WideRows() {}

    /** Row {@code i}, deterministic. */
    static GenericRowData row(long i) {
        long r = mix(i);
        long r2 = mix(r);
        boolean nulls = (r & 0xF) == 0;
        return GenericRowData.of(
                i,
                string("customer-" + i + (r % 3 == 0 ? " \"vip\"" : "")),
                nulls ? null : DecimalData.fromBigDecimal(BigDecimal.valueOf(r2 % 10_000_000, 2), 10, 2),
                DecimalData.fromBigDecimal(total(r, r2), 30, 6),
                (r >>> 40) / 1024.0 - 4096.0,
                (float) ((r >>> 48) * 0.37),
                (r & 0x10) != 0,
                nulls ? null : (int) (r >> 44),
                (int) (19_000 + Math.floorMod(r2, 3000)),
                TimestampData.fromEpochMillis(EPOCH_MILLIS_2024 + Math.floorMod(r, 31_536_000_000L)),
                TimestampData.fromEpochMillis(
                        EPOCH_MILLIS_2024 + Math.floorMod(r2, 31_536_000_000L), (int) Math.floorMod(r, 1000) * 1000),
                (r & 0x20) != 0 ? null : GenericRowData.of(
                        string((r2 % 900 + 100) + " Main St."),
                        string(CITIES[(int) Math.floorMod(r2 >> 8, CITIES.length)]),
                        (r & 0x40) != 0 ? null : (int) Math.floorMod(r2 >> 16, 99_999)),
                tags(r2),
                counters(r),
                (r & 0x80) != 0 ? null : string("note " + Long.toHexString(r2)));
    }

    /**
     * A DECIMAL(30, 6) whose unscaled value usually fits a long, as sums of money do; one row in 16
     * holds 22 digits, beyond a long.
     */
    private static BigDecimal total(long r, long r2) {
        if ((r & 0xF00) == 0) {
            return new BigDecimal(Math.abs(r2 / 10) + "123").movePointLeft(6);
        }
        return BigDecimal.valueOf(r2 % 1_000_000_000_000_000L, 6);
    }

    private static GenericArrayData tags(long r) {
        int n = (int) Math.floorMod(r >> 24, 5);
        Object[] tags = new Object[n];
        for (int t = 0; t < n; t++) {
            int pick = (int) Math.floorMod(r >> (28 + 3 * t), TAGS.length + 1);
            tags[t] = pick == TAGS.length ? null : string(TAGS[pick]);
        }
        return new GenericArrayData(tags);
    }

    private static GenericMapData counters(long r) {
        int n = (int) Math.floorMod(r >> 8, 4);
        Map<Object, Object> counters = new LinkedHashMap<>();
        for (int e = 0; e < n; e++) {
            counters.put(string("k" + e), e == 2 ? null : (r >> (8 * e)) & 0xFFFF);
        }
        return new GenericMapData(counters);
    }

    /** Writes rows {@code [0, n)} into {@code batch} ({@code ArrowLayout.schema(WIDE_TYPE)}). */
    static void fill(VectorSchemaRoot batch, int n) {
        for (int i = 0; i < n; i++) {
            write(batch, i, row(i));
        }
        batch.setRowCount(n);
    }

    private static void write(VectorSchemaRoot batch, int i, RowData row) {
        setLong((BigIntVector) batch.getVector(0), i, row, 0);
        setString((VarCharVector) batch.getVector(1), i, row, 1);
        setDecimal((DecimalVector) batch.getVector(2), i, row, 2, 10, 2);
        setDecimal((DecimalVector) batch.getVector(3), i, row, 3, 30, 6);
        ((Float8Vector) batch.getVector(4)).setSafe(i, row.getDouble(4));
        ((Float4Vector) batch.getVector(5)).setSafe(i, row.getFloat(5));
        ((BitVector) batch.getVector(6)).setSafe(i, row.getBoolean(6) ? 1 : 0);
        setInt((IntVector) batch.getVector(7), i, row, 7);
        ((DateDayVector) batch.getVector(8)).setSafe(i, row.getInt(8));
        ((TimeStampMilliVector) batch.getVector(9)).setSafe(i, row.getTimestamp(9, 3).getMillisecond());
        TimestampData seen = row.getTimestamp(10, 6);
        ((TimeStampMicroTZVector) batch.getVector(10))
                .setSafe(i, seen.getMillisecond() * 1000 + seen.getNanoOfMillisecond() / 1000);
        writeAddress((StructVector) batch.getVector(11), i, row);
        writeTags((ListVector) batch.getVector(12), i, row.getArray(12));
        writeCounters((MapVector) batch.getVector(13), i, row.getMap(13));
        setString((VarCharVector) batch.getVector(14), i, row, 14);
    }

    private static void writeAddress(StructVector address, int i, RowData row) {
        if (row.isNullAt(11)) {
            address.setNull(i);
            return;
        }
        RowData value = row.getRow(11, 3);
        address.setIndexDefined(i);
        setString((VarCharVector) address.getChildByOrdinal(0), i, value, 0);
        setString((VarCharVector) address.getChildByOrdinal(1), i, value, 1);
        setInt((IntVector) address.getChildByOrdinal(2), i, value, 2);
    }

    private static void writeTags(ListVector tags, int i, ArrayData value) {
        VarCharVector elements = (VarCharVector) tags.getDataVector();
        int offset = tags.startNewValue(i);
        for (int t = 0; t < value.size(); t++) {
            if (value.isNullAt(t)) {
                elements.setNull(offset + t);
            } else {
                elements.setSafe(offset + t, value.getString(t).toBytes());
            }
        }
        tags.endValue(i, value.size());
    }

    private static void writeCounters(MapVector counters, int i, MapData value) {
        StructVector entries = (StructVector) counters.getDataVector();
        VarCharVector keys = (VarCharVector) entries.getChildByOrdinal(0);
        BigIntVector values = (BigIntVector) entries.getChildByOrdinal(1);
        ArrayData keyArray = value.keyArray();
        ArrayData valueArray = value.valueArray();
        int offset = counters.startNewValue(i);
        for (int e = 0; e < value.size(); e++) {
            entries.setIndexDefined(offset + e);
            keys.setSafe(offset + e, keyArray.getString(e).toBytes());
            if (valueArray.isNullAt(e)) {
                values.setNull(offset + e);
            } else {
                values.setSafe(offset + e, valueArray.getLong(e));
            }
        }
        counters.endValue(i, value.size());
    }

    private static void setLong(BigIntVector vector, int i, RowData row, int field) {
        if (row.isNullAt(field)) {
            vector.setNull(i);
        } else {
            vector.setSafe(i, row.getLong(field));
        }
    }

    private static void setInt(IntVector vector, int i, RowData row, int field) {
        if (row.isNullAt(field)) {
            vector.setNull(i);
        } else {
            vector.setSafe(i, row.getInt(field));
        }
    }

    private static void setString(VarCharVector vector, int i, RowData row, int field) {
        if (row.isNullAt(field)) {
            vector.setNull(i);
        } else {
            vector.setSafe(i, row.getString(field).toBytes());
        }
    }

    private static void setDecimal(DecimalVector vector, int i, RowData row, int field, int precision, int scale) {
        if (row.isNullAt(field)) {
            vector.setNull(i);
        } else {
            vector.setSafe(i, row.getDecimal(field, precision, scale).toBigDecimal());
        }
    }

    private static StringData string(String value) {
        return StringData.fromBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    private static long mix(long z) {
        z = (z + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
