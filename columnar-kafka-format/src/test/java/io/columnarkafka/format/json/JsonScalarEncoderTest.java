package io.columnarkafka.format.json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

/** Scalar writers against Flink's JSON serializer, value edge cases included. */
class JsonScalarEncoderTest extends FlinkJsonOracle {

    @Test
    void booleansAndIntegers() throws Exception {
        assertSameAsFlink("ROW<b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT>", rows(
                new Object[] {true, (byte) 0, (short) 0, 0, 0L},
                new Object[] {false, Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE},
                new Object[] {true, Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE},
                new Object[] {null, null, null, null, null},
                new Object[] {false, (byte) -7, (short) 99, 100, -1234567890123L},
                new Object[] {true, (byte) 9, (short) -10, 99, 10L}));
    }

    @Test
    void floatsAndDoubles() throws Exception {
        assertSameAsFlink("ROW<f FLOAT, d DOUBLE>", rows(
                new Object[] {1.1f, 1.1},
                new Object[] {1.0E10f, 1.0E10},
                new Object[] {1.0E-7f, 1.0E-7},
                new Object[] {Float.NaN, Double.NaN},
                new Object[] {Float.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY},
                new Object[] {Float.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY},
                new Object[] {-0.0f, -0.0},
                new Object[] {Float.MIN_VALUE, Double.MIN_VALUE},
                new Object[] {Float.MAX_VALUE, Double.MAX_VALUE},
                new Object[] {0.1f + 0.2f, 0.1 + 0.2},
                new Object[] {null, null},
                new Object[] {123456.78f, 2e-323}));
    }

    @Test
    void decimalsDefaultAndPlain() throws Exception {
        String type = "ROW<a DECIMAL(10, 2), b DECIMAL(10, 0), c DECIMAL(38, 10), d DECIMAL(38, 0), e DECIMAL(38, 38),"
                + " f DECIMAL(18, 4), g DECIMAL(19, 0)>";
        List<GenericRowData> rows = new ArrayList<>();
        String[][] values = {
            {"100.00", "1000", "0", "0", "0", "0.0000", "0"},
            {"0.00", "0", "0.0000000000", "1", "0.00000000000000000000000000000000000001", "1.0000", "1"},
            {"-0.50", "-1000", "-1.0000000000", "-1", "-0.99999999999999999999999999999999999999", "-0.0001", "-10"},
            {"123.40", "1", "12345678901234567890.1234567890", "99999999999999999999999999999999999999",
                "0.12345678901234567890123456789012345678", "99999999999999.9999", "9223372036854775807"},
            {"-99999999.99", "9999999999", "9999999999999999999999999999.9999999999",
                "-99999999999999999999999999999999999999", "0.10000000000000000000000000000000000000",
                "-99999999999999.9999", "-9223372036854775808"},
            {"0.01", "-9999999999", "0.0000001000", "10000000000000000000", "0.00000010000000000000000000000000000000",
                "0.1000", "-9223372036854775809"},
            {"1.10", "10", "-0.0000000100", "100000000000000000000000000000000000", "0.50000000000000000000000000000000000000",
                "100000.0000", "1000000000000000000"},
        };
        for (String[] row : values) {
            Object[] fields = new Object[row.length];
            int[][] ps = {{10, 2}, {10, 0}, {38, 10}, {38, 0}, {38, 38}, {18, 4}, {19, 0}};
            for (int i = 0; i < row.length; i++) {
                fields[i] = DecimalData.fromBigDecimal(new BigDecimal(row[i]), ps[i][0], ps[i][1]);
            }
            rows.add(GenericRowData.of(fields));
        }
        rows.add(GenericRowData.of(null, null, null, null, null, null, null));
        assertSameAsFlink(type, rows);
        assertSameAsFlink(type, options(JsonFormatOptions.DECIMAL_AS_PLAIN_NUMBER, "true"), rows);
    }

    @Test
    void stringsEveryEscapeClass() throws Exception {
        List<GenericRowData> rows = new ArrayList<>();
        rows.add(row(""));
        rows.add(row("plain ascii / with slash ~"));
        rows.add(row("quote \" backslash \\ done"));
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            controls.append(c);
        }
        rows.add(row(controls + "\u007f"));
        rows.add(row("é ü ß € 中文 \uffff \ufffd"));
        rows.add(row("emoji 😀 and 𝄞 and \uDBFF\uDFFF"));
        rows.add(row("exactly8"));
        rows.add(row("sixteen bytes!!!"));
        rows.add(GenericRowData.of((Object) null));
        rows.add(row("\"\"\"\"\"\"\"\"\"\\"));
        assertSameAsFlink("ROW<s STRING>", rows);
    }

    @Test
    void cleanStringColumnsAreCopiedInBulk() throws Exception {
        // ASCII only, and valid non-ASCII without escapes: both take the bulk path.
        assertSameAsFlink("ROW<a STRING, b VARCHAR(20), c CHAR(3)>", rows(
                new Object[] {s("alpha"), s("ÀÉÎ"), s("abc")},
                new Object[] {s(""), s("中文字符 and more"), s("x y")},
                new Object[] {null, s(""), null},
                new Object[] {s("a longer ascii value that spans many words"), s("€"), s("€€€")}));
    }

    @Test
    void malformedUtf8IsWrittenAsFlinkDecodesIt() throws Exception {
        byte[][] values = {
            {(byte) 0xff, 'a'}, {(byte) 0xc3}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xc0, (byte) 0x80},
            {(byte) 0xe0, (byte) 0x80, (byte) 0x80}, {(byte) 0xf0, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {'o', 'k', (byte) 0x80, '"', 0x01}, {(byte) 0xf0, (byte) 0x9f, (byte) 0x98},
            {(byte) 0xe2, (byte) 0x82, (byte) 0xac}, // a valid value in a column with malformed ones
        };
        List<GenericRowData> rows = new ArrayList<>();
        for (byte[] value : values) {
            rows.add(GenericRowData.of(StringData.fromBytes(value)));
        }
        assertSameAsFlink("ROW<s STRING>", rows);
    }

    @Test
    void valueBoundaryInsideAValidSequence() throws Exception {
        // "€" is E2 82 AC; split over two values the region is valid UTF-8 but each value is not.
        assertSameAsFlink("ROW<s STRING>", rows(
                new Object[] {StringData.fromBytes(new byte[] {'a', (byte) 0xe2, (byte) 0x82})},
                new Object[] {StringData.fromBytes(new byte[] {(byte) 0xac, 'b'})}));
    }

    @Test
    void randomStringsMatchFlink() throws Exception {
        Random random = new Random(20260101);
        byte[] interesting = {0, 0x08, 0x1f, '"', '\\', '/', 0x7f, 'a', (byte) 0x80, (byte) 0xbf, (byte) 0xc2,
            (byte) 0xc3, (byte) 0xdf, (byte) 0xe0, (byte) 0xe2, (byte) 0xed, (byte) 0xef, (byte) 0xf0, (byte) 0xf4,
            (byte) 0xf5, (byte) 0xff, (byte) 0x9f, (byte) 0xa0, (byte) 0x90};
        for (int batch = 0; batch < 20; batch++) {
            List<GenericRowData> rows = new ArrayList<>();
            for (int r = 0; r < 200; r++) {
                byte[] bytes = new byte[random.nextInt(24)];
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = random.nextInt(3) == 0 ? interesting[random.nextInt(interesting.length)]
                            : (byte) (random.nextBoolean() ? 'a' + random.nextInt(26) : random.nextInt(256));
                }
                rows.add(GenericRowData.of(StringData.fromBytes(bytes)));
            }
            assertSameAsFlink("ROW<s STRING>", rows);
        }
        for (int batch = 0; batch < 5; batch++) {
            List<GenericRowData> rows = new ArrayList<>();
            for (int r = 0; r < 200; r++) {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(20);
                for (int i = 0; i < length; i++) {
                    int cp = switch (random.nextInt(4)) {
                        case 0 -> 0x20 + random.nextInt(0x5f);
                        case 1 -> 0x80 + random.nextInt(0x780);
                        case 2 -> 0xe000 + random.nextInt(0x2000);
                        default -> 0x10000 + random.nextInt(0x10000);
                    };
                    text.appendCodePoint(cp);
                }
                rows.add(row(text.toString()));
            }
            assertSameAsFlink("ROW<s STRING>", rows);
        }
    }

    @Test
    void aByteNeedingCareAtEveryPositionOfEveryLength() throws Exception {
        // Values are copied a word at a time until a word needs care, the tail as an overlapping last
        // word: put each kind of such byte at each offset of values around word multiples.
        byte[][] specials = {{'"'}, {'\\'}, {0x01}, {0x7f}, {(byte) 0xc3, (byte) 0xa9},
            {(byte) 0xe2, (byte) 0x82, (byte) 0xac}, {(byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80},
            {(byte) 0xff}, {(byte) 0xe2, (byte) 0x82}};
        List<GenericRowData> rows = new ArrayList<>();
        for (int length = 0; length <= 33; length++) {
            byte[] plain = new byte[length];
            for (int i = 0; i < length; i++) {
                plain[i] = (byte) ('a' + i % 26);
            }
            rows.add(GenericRowData.of(StringData.fromBytes(plain)));
            for (byte[] special : specials) {
                for (int at = 0; at + special.length <= length; at++) {
                    byte[] value = plain.clone();
                    System.arraycopy(special, 0, value, at, special.length);
                    rows.add(GenericRowData.of(StringData.fromBytes(value)));
                }
            }
        }
        assertSameAsFlink("ROW<s STRING>", rows);
    }

    @Test
    void nullsInAnyWordOfTheValidityBitmap() throws Exception {
        // A batch with no null skips the validity reads; one null anywhere, in a full word or the tail,
        // must still be seen.
        for (int nullAt : new int[] {-1, 0, 63, 64, 127, 128, 129}) {
            List<GenericRowData> rows = new ArrayList<>();
            for (int r = 0; r < 130; r++) {
                rows.add(r == nullAt ? GenericRowData.of(null, null) : GenericRowData.of((long) r, StringData.fromString("v" + r)));
            }
            assertSameAsFlink("ROW<n BIGINT, s STRING>", rows);
            assertSameAsFlink("ROW<n BIGINT, s STRING>", options(JsonFormatOptions.IGNORE_NULL_FIELDS, "true"), rows);
        }
    }

    @Test
    void consecutiveTimestampsAcrossMillisSecondsAndDays() throws Exception {
        // The date-and-second prefix is cached: runs within a second, across seconds, days and the epoch.
        long[] starts = {-2_001, 86_399_000 - 3, 1_577_934_245_000L - 5};
        for (String standard : new String[] {"SQL", "ISO-8601"}) {
            List<GenericRowData> milliRows = new ArrayList<>();
            List<GenericRowData> nanoRows = new ArrayList<>();
            for (long start : starts) {
                for (long m = start; m < start + 2_010; m += 7) {
                    TimestampData t = TimestampData.fromEpochMillis(m);
                    milliRows.add(GenericRowData.of(t, t));
                    nanoRows.add(GenericRowData.of(t, t));
                }
                for (long m = start; m < start + 3_000; m += 100) {
                    // Millis with and without a sub-milli part interleaved, in the same seconds.
                    TimestampData t = TimestampData.fromEpochMillis(m, (int) (m & 0xff) * 1000);
                    nanoRows.add(GenericRowData.of(t, t));
                    nanoRows.add(GenericRowData.of(TimestampData.fromEpochMillis(m), TimestampData.fromEpochMillis(m)));
                }
            }
            JsonFormatOptions options = options(JsonFormatOptions.TIMESTAMP_FORMAT, standard);
            assertSameAsFlink("ROW<t TIMESTAMP(3), l TIMESTAMP_LTZ(3)>", options, milliRows);
            assertSameAsFlink("ROW<t TIMESTAMP(9), l TIMESTAMP_LTZ(9)>", options, nanoRows);
        }
    }

    @Test
    void binaryAsBase64() throws Exception {
        List<GenericRowData> rows = new ArrayList<>();
        for (int length = 0; length <= 7; length++) {
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = (byte) (0xfb + i * 37);
            }
            rows.add(GenericRowData.of(bytes, bytes));
        }
        rows.add(GenericRowData.of(null, new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xfd}));
        assertSameAsFlink("ROW<b BYTES, f BINARY(3)>", rows);
    }

    @Test
    void datesAndTimes() throws Exception {
        int[] days = {0, 1, -1, 18262, 2932896, 2932897, -719528, -719529, -800000, -1_000_000, Integer.MAX_VALUE,
            Integer.MIN_VALUE, 11016, 11017, 11017};
        int[] millis = {0, 1, 999, 1000, 1500, -500, 86_399_999, 43_200_000, 3_723_004, -1, 60_000, 59_999, 3_600_000,
            86_399_000, 7};
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < days.length; i++) {
            rows.add(GenericRowData.of(days[i], millis[i]));
        }
        rows.add(GenericRowData.of(null, null));
        assertSameAsFlink("ROW<d DATE, t TIME(3)>", rows);
    }

    @Test
    void timestampsInEveryUnitAndFormat() throws Exception {
        long[] millis = {0, 1, -1, 1000, -1000, 1_577_934_245_120L, 1_577_934_245_000L, 253_402_300_799_999L,
            253_402_300_800_000L, -62_167_219_200_000L, -62_167_219_200_001L, -86_400_000L, 951_782_400_000L,
            951_782_400_000L, 951_868_799_999L};
        int[] nanos = {0, 0, 999_999, 120_000, 1, 0, 456_789, 999_999, 0, 0, 1, 0, 0, 100_000, 999_000};
        for (String standard : new String[] {"SQL", "ISO-8601"}) {
            JsonFormatOptions options = options(JsonFormatOptions.TIMESTAMP_FORMAT, standard);
            List<GenericRowData> nanoRows = new ArrayList<>();
            List<GenericRowData> microRows = new ArrayList<>();
            List<GenericRowData> milliRows = new ArrayList<>();
            List<GenericRowData> secondRows = new ArrayList<>();
            for (int i = 0; i < millis.length; i++) {
                // Arrow NANOSECOND holds about 1677-09-21 to 2262-04-11.
                boolean nanosFit = Math.abs(millis[i]) < 9_000_000_000_000L;
                TimestampData nano = TimestampData.fromEpochMillis(nanosFit ? millis[i] : millis[i] % 9_000_000_000_000L, nanos[i]);
                TimestampData micro = TimestampData.fromEpochMillis(millis[i], nanos[i] / 1000 * 1000);
                TimestampData milli = TimestampData.fromEpochMillis(millis[i]);
                TimestampData second = TimestampData.fromEpochMillis(Math.floorDiv(millis[i], 1000) * 1000);
                nanoRows.add(GenericRowData.of(nano, nano));
                microRows.add(GenericRowData.of(micro, micro));
                milliRows.add(GenericRowData.of(milli, milli));
                secondRows.add(GenericRowData.of(second, second));
            }
            nanoRows.add(GenericRowData.of(null, null));
            assertSameAsFlink("ROW<t TIMESTAMP(9), l TIMESTAMP_LTZ(9)>", options, nanoRows);
            assertSameAsFlink("ROW<t TIMESTAMP(7), l TIMESTAMP_LTZ(8)>", options, nanoRows);
            assertSameAsFlink("ROW<t TIMESTAMP(6), l TIMESTAMP_LTZ(4)>", options, microRows);
            assertSameAsFlink("ROW<t TIMESTAMP(3), l TIMESTAMP_LTZ(1)>", options, milliRows);
            assertSameAsFlink("ROW<t TIMESTAMP(0), l TIMESTAMP_LTZ(0)>", options, secondRows);
        }
    }

    @Test
    void fieldNamesAreEscapedLikeValues() throws Exception {
        assertSameAsFlink("ROW<`a\"b\\c\u0001é😀` INT, `/` INT, `tab\u0009 and newline\n` INT>", rows(new Object[] {1, 2, 3}));
    }

    private static GenericRowData row(String value) {
        return GenericRowData.of(s(value));
    }

    private static StringData s(String value) {
        return StringData.fromBytes(value.getBytes(StandardCharsets.UTF_8));
    }
}
