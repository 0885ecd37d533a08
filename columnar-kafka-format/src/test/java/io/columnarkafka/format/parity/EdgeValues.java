package io.columnarkafka.format.parity;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/** Adversarial non-null values, in Flink internal form, for every scalar type; shared by corpus and properties. */
public final class EdgeValues {
    private EdgeValues() {}

    public static final String CONTROL_CHARS;

    static {
        StringBuilder b = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            b.append(c);
        }
        CONTROL_CHARS = b.append('\u007f').toString();
    }

    public static final List<String> STRINGS = List.of(
            "", " ", "a", CONTROL_CHARS, "\"", "\\", "/", "\"\\/\b\f\n\r\t", "</script>",
            "\u00e9\u00df\u00f1", "\u20ac\u4e2d\u6587\uffff", "\uD83D\uDE00", "a\uD83D\uDE00b\uD83C\uDDFA\uD83C\uDDF8",
            "\u0000", "\u001f\u007f\u0080\u009f", "\u2028\u2029", "null", "{\"k\":[1]}", "x".repeat(300),
            // CSV: delimiters, quotes and escapes inside values, the 24-char quoting limit, leading signs
            "a,b", "a;b", "a|b", "it's", "x".repeat(24), "y".repeat(25), "\u00e9".repeat(24), "\u00e9".repeat(25),
            "\uD83D\uDE00".repeat(12), "\uD83D\uDE00".repeat(13), "#c", "+1", "-1", " lead", "trail ", "a\tb",
            "a*b", "a\r\nb", "~}", "=@");

    public static final List<Float> FLOATS = List.of(0.0f, -0.0f, 1.0f, -1.5f, 1.1f, 0.1f, 1.0E10f, 1.0E-7f, 3.4028235E38f,
            Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL, -Float.MAX_VALUE, Float.NaN,
            Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 123456.79f, 1.0E7f, 9999999.0f, 2.0E-3f, 1.0E-3f);

    public static final List<Double> DOUBLES = List.of(0.0, -0.0, 1.0, -1.5, 1.1, 0.1, 0.1 + 0.2, 1.0E10, 1.0E-7, 2.0E-3,
            1.0E-3, 1.0E7, 9999999.0, 1.0E23, 2.0E23, 4.35, 5.0E-324, Double.MAX_VALUE, Double.MIN_VALUE,
            Double.MIN_NORMAL, -Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            (double) Float.MAX_VALUE, 1.2345678901234567E-300);

    public static final List<String> DECIMALS = List.of("0", "0.000", "1", "-1", "100.00", "1000", "123.40", "0.5", "-0.5",
            "1E-30", "-1E-30", "12345678901234567890.123456789012345678", "99999999999999999999999999999999999999",
            "-99999999999999999999999999999999999999", "0.99999999999999999999999999999999999999",
            "-0.00000000000000000000000000000000000001", "9999999999999999.99", "-9999999999999999.99",
            "1E+5", "0.1", "10", "999999999");

    public static final List<String> DATES = List.of(
            "1970-01-01", "1969-12-31", "0001-01-01", "9999-12-31", "2020-02-29", "0000-01-01", "1000-01-01");

    public static final List<String> TIMES = List.of("00:00:00", "23:59:59.999", "12:34:56.789", "00:00:00.001", "12:00:00");

    public static final List<String> TIMESTAMPS = List.of("1970-01-01T00:00:00", "1969-12-31T23:59:59.999999999",
            "1969-12-31T23:59:59.5", "0001-01-01T00:00:00", "9999-12-31T23:59:59.999999999",
            "2020-01-02T03:04:05.120", "2020-01-02T03:04:05.1", "1970-01-01T00:00:00.000000001",
            "1970-01-01T00:00:00.000001", "2000-02-29T12:00:00.123456789", "1677-09-21T00:12:43.145224192",
            "2262-04-11T23:47:16.854775807", "1900-01-01T00:00:00.01");

    /** Edge values of a scalar {@code type}, every one valid for it (fits the precision, the Arrow unit range). */
    public static List<Object> of(LogicalType type) {
        return of(type, false);
    }

    /**
     * Edge values of a scalar {@code type}; with {@code fullRange}, nanosecond timestamps over Flink's whole
     * range (year 0001 .. 9999), which only the full-range layout of the encoders carries.
     */
    public static List<Object> of(LogicalType type, boolean fullRange) {
        List<Object> out = new ArrayList<>();
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                out.add(true);
                out.add(false);
                break;
            case TINYINT:
                for (byte b : new byte[] {0, 1, -1, Byte.MIN_VALUE, Byte.MAX_VALUE}) {
                    out.add(b);
                }
                break;
            case SMALLINT:
                for (short s : new short[] {0, -1, Short.MIN_VALUE, Short.MAX_VALUE, 1000}) {
                    out.add(s);
                }
                break;
            case INTEGER:
                out.addAll(List.of(0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1_000_000));
                break;
            case BIGINT:
                out.addAll(List.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 9007199254740993L, 1L << 53));
                break;
            case FLOAT:
                out.addAll(FLOATS);
                break;
            case DOUBLE:
                out.addAll(DOUBLES);
                break;
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                for (String s : DECIMALS) {
                    DecimalData v = DecimalData.fromBigDecimal(new BigDecimal(s), d.getPrecision(), d.getScale());
                    if (v != null) {
                        out.add(v);
                    }
                }
                break;
            }
            case CHAR:
            case VARCHAR:
                for (String s : STRINGS) {
                    out.add(StringData.fromString(s));
                }
                break;
            case BINARY:
            case VARBINARY:
                out.add(new byte[0]);
                out.add(new byte[] {0});
                out.add(new byte[] {-1, -2});
                out.add(new byte[] {(byte) 0xfb, (byte) 0xff, (byte) 0xbf});
                out.add(new byte[] {1, 2, 3, 4});
                byte[] longer = new byte[200]; // longer than a MIME line
                for (int i = 0; i < longer.length; i++) {
                    longer[i] = (byte) (i * 7);
                }
                out.add(longer);
                break;
            case DATE:
                for (String s : DATES) {
                    out.add((int) LocalDate.parse(s).toEpochDay());
                }
                break;
            case TIME_WITHOUT_TIME_ZONE:
                for (String s : TIMES) {
                    out.add((int) (LocalTime.parse(s).toNanoOfDay() / 1_000_000L));
                }
                break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                out.addAll(timestamps(((TimestampType) type).getPrecision(), fullRange));
                break;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                out.addAll(timestamps(((LocalZonedTimestampType) type).getPrecision(), fullRange));
                break;
            default:
                throw new IllegalArgumentException("not a scalar: " + type);
        }
        return out;
    }

    /**
     * The timestamps truncated to {@code precision}, minus those a nanosecond Arrow column cannot hold
     * unless {@code fullRange}.
     */
    public static List<Object> timestamps(int precision, boolean fullRange) {
        List<Object> out = new ArrayList<>();
        for (String s : TIMESTAMPS) {
            TimestampData t = TimestampData.fromLocalDateTime(truncate(LocalDateTime.parse(s), precision));
            if (precision <= 6 || fullRange || fitsNanos(t)) {
                out.add(t);
            }
        }
        return out;
    }

    public static LocalDateTime truncate(LocalDateTime t, int precision) {
        long unit = (long) Math.pow(10, 9 - precision);
        return t.withNano((int) (t.getNano() / unit * unit));
    }

    private static boolean fitsNanos(TimestampData t) {
        LocalDateTime l = t.toLocalDateTime();
        return !l.isBefore(LocalDateTime.parse("1677-09-21T00:12:43.145224192"))
                && !l.isAfter(LocalDateTime.parse("2262-04-11T23:47:16.854775807"));
    }

    /**
     * Rows cycling every column of {@code type} through its {@link #of edge values}, then an all-null row and
     * two alternating-null rows (nullable columns only).
     */
    public static List<RowData> cyclingRows(RowType type) {
        return cyclingRows(type, false);
    }

    /** As {@link #cyclingRows(RowType)}, with {@link #of(LogicalType, boolean) fullRange} edge values. */
    public static List<RowData> cyclingRows(RowType type, boolean fullRange) {
        List<List<Object>> values = new ArrayList<>();
        int longest = 0;
        for (LogicalType t : type.getChildren()) {
            values.add(of(t, fullRange));
            longest = Math.max(longest, values.get(values.size() - 1).size());
        }
        List<RowData> rows = new ArrayList<>();
        for (int r = 0; r < longest + 3; r++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int c = 0; c < type.getFieldCount(); c++) {
                List<Object> column = values.get(c);
                boolean nulled = type.getTypeAt(c).isNullable()
                        && (r == longest || (r == longest + 1 && c % 2 == 0) || (r == longest + 2 && c % 2 == 1));
                row.setField(c, nulled ? null : column.get((r + c) % column.size()));
            }
            rows.add(row);
        }
        return rows;
    }

    /** INTERVAL columns at the top level and nested, for {@link #intervalRows}. */
    public static final RowType INTERVALS = io.columnarkafka.format.RowTypes.parse("ROW<ym INTERVAL YEAR(2) TO MONTH,"
            + " m INTERVAL MONTH, dt INTERVAL DAY(2) TO SECOND(3), d INTERVAL DAY(6), s INTERVAL SECOND(9),"
            + " a ARRAY<INTERVAL DAY(2) TO SECOND(3)>, r ROW<x INTERVAL YEAR(4), y INTERVAL HOUR TO MINUTE>>");

    /** Rows of {@link #INTERVALS}: Flink's int months and long millis at their extremes, zero, negatives, nulls. */
    public static List<RowData> intervalRows() {
        int[] months = {0, 1, -1, 27, -27, Integer.MAX_VALUE, Integer.MIN_VALUE};
        long[] millis = {0L, 1L, -1L, 86_400_000L, -90_061_001L, Long.MAX_VALUE, Long.MIN_VALUE};
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < months.length; i++) {
            long ms = millis[i];
            rows.add(GenericRowData.of(months[i], months[(i + 1) % months.length], ms, millis[(i + 2) % millis.length],
                    millis[(i + 3) % millis.length],
                    new org.apache.flink.table.data.GenericArrayData(new Object[] {ms, null, -ms}),
                    GenericRowData.of(months[(i + 4) % months.length], ms)));
        }
        rows.add(new GenericRowData(INTERVALS.getFieldCount()));
        rows.add(GenericRowData.of(null, 5, null, 7L, null, new org.apache.flink.table.data.GenericArrayData(new Object[0]),
                GenericRowData.of(null, null)));
        return rows;
    }

    /** A string whose bytes are not valid UTF-8 (a lone continuation byte and a truncated sequence). */
    public static StringData invalidUtf8() {
        return BinaryStringData.fromBytes(new byte[] {'a', (byte) 0x80, 'b', (byte) 0xE2, (byte) 0x82});
    }
}
