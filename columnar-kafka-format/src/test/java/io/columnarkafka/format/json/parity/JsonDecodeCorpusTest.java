package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Adversarial JSON records through Flink's deserializer and the columnar decoder ({@link JsonDecodeCheck}),
 * under each option combination: every spelling of every type in every field (Flink's coercions and
 * rejections), the record's structure (truncation, top-level arrays, trailing bytes, whitespace, comments,
 * nesting limits), repeated and unknown fields, values of the wrong shape that leave Flink's parser inside
 * them, and invalid UTF-8 wherever it can stand.
 */
class JsonDecodeCorpusTest {
    static final RowType SCALARS = row("ROW<b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT,"
            + " d DOUBLE, dc DECIMAL(10, 2), dc38 DECIMAL(38, 18), s STRING, c CHAR(3), bin BYTES, dt DATE,"
            + " tm TIME(3), ts TIMESTAMP(3), ts0 TIMESTAMP(0), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"
            + " ltz TIMESTAMP_LTZ(3), ltz9 TIMESTAMP_LTZ(9)>");
    /** Without a DECIMAL: Flink reads floats in a tree as doubles then (a STRING fed an object shows it). */
    private static final RowType NO_DECIMAL = row("ROW<s STRING, i INT, arr ARRAY<STRING>, m MAP<STRING, STRING>>");
    private static final RowType NESTED = row("ROW<id INT, r ROW<a INT, s STRING, inner ROW<x BIGINT, y STRING>>,"
            + " arr ARRAY<INT>, strs ARRAY<STRING>, m MAP<STRING, INT>, ms MULTISET<STRING>,"
            + " rows ARRAY<ROW<k STRING, v ARRAY<DOUBLE>>>, mm MAP<STRING, MAP<STRING, STRING>>,"
            + " deep ARRAY<ARRAY<ARRAY<INT>>>, dc DECIMAL(5, 1)>");

    /** Value spellings put into every field of {@link #SCALARS}. */
    static final List<String> VALUES = List.of(
            // numbers
            "0", "1", "-1", "-0", "7", "1.0", "1.9", "-1.9", "0.5", "-0.5", "1e3", "1E3", "1e+3", "1e-3", "1.5e2",
            "-0.0", "123.456", "99999999.995", "0.001", "127", "128", "-128", "-129", "32767", "32768", "-32769",
            "2147483647", "2147483648", "-2147483648", "-2147483649", "2147483647.5", "2147483648.0",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "9.223372036854775807e18", "9.3e18", "1e19", "12345678901234567890123", "3.4028235e38", "3.5e38", "1e39",
            "1e308", "1e309", "1e400", "-1e400", "4.9e-324", "1e-400", "1.1", "0.1", "0.30000000000000004",
            "1.00000001", "16777217", "9007199254740993", "1234567.891",
            // integers either side of the unchecked 18-digit path, doubles either side of the exact fast path
            "99999999999999999", "999999999999999999", "-999999999999999999", "100000000000000000",
            "1000000000000000000", "-1000000000000000000", "99999999999999999999", "-00", "0.123456789012345",
            "0.1234567890123456", "0.12345678901234567", "123456789012345e-22", "1234567890123456e-22", "1e22", "1e23",
            "9007199254740992", "2.2250738585072014E-308", "2.2250738585072011e-308", "1.7976931348623157e308",
            "-0e0", "1E-22", "999999999999999e22",
            // strings holding numbers and words
            "\"1\"", "\" 1 \"", "\"+1\"", "\"-0\"", "\"1.0\"", "\"1e3\"", "\"007\"", "\"abc\"", "\"\"", "\" \"",
            "\"\\t5\\n\"", "\"NaN\"", "\"-Infinity\"", "\"Infinity\"", "\"0x1p3\"", "\"1d\"", "\"1f\"", "\"\\u0031\"",
            "\"\uff11\"", "\"\u0663\"", "\"12.345\"", "\"1.005\"", "\"1e400\"", "\"99999999999\"",
            // literals and structures
            "true", "false", "null", "\"true\"", "\"TRUE\"", "\" true \"", "\"false\"", "\"yes\"",
            "{}", "{\"a\":1}", "[]", "[1,2]", "[1,[2,{\"x\":null}]]", "{\"x\":{\"y\":[1,\"a\\u00e9\"]},\"z\":1.50}",
            "{\"k\":1,\"k\":2}", "[1.0,-0,1e2,\"\\ud83d\\ude00\"]",
            // dates, times, timestamps
            "\"2020-01-02\"", "\"2020-02-29\"", "\"2021-02-29\"", "\"2020-02-30\"", "\"2020-13-01\"", "\"+2020-01-02\"",
            "\"-0001-01-01\"", "\"+10000-01-01\"", "\"20200102\"", "\"2020-1-2\"", "\"0000-01-01\"", "\"9999-12-31\"",
            "\"12:34:56\"", "\"12:34:56.789\"", "\"00:00:00.999999999\"", "\"24:00:00\"", "\"23:59:60\"", "\"12:34\"",
            "\"12:34:56.\"", "\"12:34:56.1234567891\"", "\"1:02:03\"",
            "\"2020-01-02 03:04:05\"", "\"2020-01-02 03:04:05.1\"", "\"2020-01-02 03:04:05.123456789\"",
            "\"2020-01-02 03:04:05.123456\"", "\"2020-01-02 03:04:05.1234\"", "\"1969-12-31 23:59:59.9999999\"",
            "\"1969-12-31 23:59:59.999\"", "\"0000-01-01 00:00:00\"", "\"9999-12-31 23:59:59.999999999\"",
            "\"1677-09-21 00:12:43.145224191\"", "\"2262-04-11 23:47:16.854775808\"", "\"2020-01-02 24:00:00\"",
            "\"2020-01-02 03:04:05.\"", "\"2020-01-02T03:04:05\"", "\"2020-01-02t03:04:05\"", "\"2020-01-02T03:04\"",
            "\"2020-01-02T03:04:05.5\"", "\"2020-01-02 03:04:05Z\"", "\"2020-01-02T03:04:05Z\"",
            "\"2020-01-02T03:04:05.123456789Z\"", "\"2020-01-02 03:04:05z\"", "\"2020-01-02  03:04:05\"",
            "\"+12345-01-02 03:04:05\"",
            // Base64 and escapes
            "\"AQID\"", "\"AQI=\"", "\"AQ==\"", "\"AQ\"", "\"AQI\"", "\"A===\"", "\"AQ==AQ==\"", "\" AQID\"", "\"AQ ID\"",
            "\"\\tAQID\"", "\"AQ\\u003d\\u003d\"", "\"\\u0041QID\"", "\"!!!!\"", "\"-_8=\"", "\"+/8=\"", "\"\"",
            "\"\u00e9\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\uD83D\uDE00\"", "\"\\uD83D\"", "\"\\uDE00\"",
            "\"\\uD83Dx\"", "\"a\\nb\\\"c\\\\d\\/e\"", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\'\"",
            "\"raw\ttab\u0001ctl\"", "\"\u2028\u00ff\u0800\uffff\"");

    /** Whole records against {@link #SCALARS}: the structure of the record itself. */
    private static final List<String> RECORDS = List.of(
            "", " ", "\n", "null", "1", "\"x\"", "true", "[]", "[{}]", "[{\"i\":1},{\"i\":2}]", "[null]", "[1]",
            "[{\"i\":1},5,{\"i\":3}]", "[{\"i\":1},{\"i\":\"x\"},{\"i\":3}]", "[{\"i\":1},{\"i\":2}", "[{\"i\":1}]x",
            "[[{\"i\":1}]]", "{}", "{", "{\"i\":1", "{\"i\":1,", "{\"i\":1,}", "{,}", "{\"i\" 1}", "{\"i\":}",
            "{\"i\":1 \"s\":\"x\"}", "{\"i\":1}}", "{\"i\":1}garbage", "{\"i\":1} {\"i\":2}", "{\"i\":1}]",
            "{\"i\":01}", "{\"i\":1.}", "{\"i\":.5}", "{\"i\":+1}", "{\"i\":-}", "{\"i\":-a}", "{\"i\":1.5e}",
            "{\"i\":tru}", "{\"i\":truex}", "{\"i\":true1}", "{\"i\":true]", "{\"i\":nul}", "{\"i\":NaN}",
            "{\"i\":Infinity}", "{\"i\":-Infinity}", "{'i':1}", "{i:1}", "{\"i\":1}/*c*/", "/*c*/{\"i\":1}",
            "{\"i\":1//c\n}", "#{\"i\":1}", "\t\n\r {\t\"i\"\n:\r1\t,  \"s\" : \"x\" }\n", "\u000b{\"i\":1}",
            "{\"i\":1\u000b}", "{\"i\":\"unterminated}", "{\"s\":\"unterminated", "{\"s\":\"esc\\", "{\"i\":1,\"i\":2}",
            "{\"i\":1,\"i\":null}", "{\"i\":1,\"i\":\"x\"}", "{\"unknown\":{\"a\":[1,{\"b\":null}],\"c\":\"d\"},\"i\":5}",
            "{\"unknown\":[1,2,}],\"i\":5}", "{\"unknown\":\"\\x\",\"i\":5}", "{\"unknown\":01,\"i\":5}",
            "{\"b\":{\"i\":5},\"i\":7}", "{\"i\":{\"i\":5},\"s\":\"after\"}", "{\"i\":[5,\"s\"],\"s\":\"t\"}",
            "{\"s\":{\"a\":1,\"a\":2},\"i\":3}", "{\"i\":{}}", "{\"i\":[]}", "{\"b\":[true],\"i\":1}",
            "{\"i\":\"1\",\"I\":2}", "{\"\\u0069\":4}", "{\"i\\u0000\":4}", "{\"\":1,\"i\":2}", "{\"null\":1}",
            "{\"ts\":\"2020-01-02 03:04:05.123456789\",\"ts0\":\"2020-01-02 03:04:05.987\","
                    + "\"ts6\":\"2020-01-02 03:04:05.1234567\",\"ts9\":\"2020-01-02 03:04:05.123456789\"}",
            "{\"x\":" + "[".repeat(999) + "]".repeat(999) + ",\"i\":1}",
            "{\"x\":" + "[".repeat(1000) + "]".repeat(1000) + ",\"i\":1}",
            "{\"x\":" + "{\"a\":".repeat(998) + "1" + "}".repeat(998) + ",\"i\":1}",
            "{\"x\":" + "{\"a\":".repeat(999) + "1" + "}".repeat(999) + ",\"i\":1}",
            "{\"x\":" + "9".repeat(1000) + ",\"i\":1}", "{\"x\":" + "9".repeat(1001) + ",\"i\":1}",
            "{\"x\":1." + "9".repeat(998) + ",\"i\":1}", "{\"x\":1." + "9".repeat(1000) + ",\"i\":1}",
            "{\"bi\":" + "9".repeat(1000) + "}", "{\"s\":" + "9".repeat(1001) + "}");

    static final List<RecordsCase> NESTED_RECORDS = List.of(new RecordsCase(NESTED, List.of(
            "{\"id\":1,\"r\":{\"a\":2,\"s\":\"x\",\"inner\":{\"x\":3,\"y\":\"z\"}},\"arr\":[1,null,3],"
                    + "\"strs\":[\"a\",null,\"\"],\"m\":{\"k\":1,\"n\":null},\"ms\":{\"a\":2,\"b\":null},"
                    + "\"rows\":[{\"k\":\"a\",\"v\":[1.5,null]},null,{}],\"mm\":{\"o\":{\"i\":\"j\"},\"p\":null},"
                    + "\"deep\":[[[1],[]],null,[[2,3]]],\"dc\":1.25}",
            "{\"m\":{\"k\":1,\"k\":2,\"j\":3,\"k\":4}}", "{\"m\":{\"a\":1,\"a\":\"x\",\"b\":2}}",
            "{\"mm\":{\"o\":{\"i\":\"1\",\"i\":\"2\"},\"o\":{\"j\":\"3\"}}}", "{\"m\":[1,2]}", "{\"m\":{\"k\":[1]}}",
            "{\"m\":{\"k\":{\"z\":1}},\"id\":9}", "{\"m\":{\"k\":{\"z\":1},\"j\":2},\"id\":9}",
            "{\"arr\":{\"a\":1},\"id\":2}", "{\"arr\":[1,\"x\",3],\"id\":2}", "{\"arr\":[1,{\"id\":4},3],\"id\":2}",
            "{\"arr\":[1,[2],3],\"id\":2}", "{\"arr\":\"1,2\"}", "{\"r\":[1,2],\"id\":3}", "{\"r\":{\"a\":\"x\"},\"id\":3}",
            "{\"r\":{\"a\":{\"id\":7},\"s\":\"q\"},\"id\":3}", "{\"r\":{\"inner\":{\"x\":[1,2]}},\"id\":3}",
            "{\"r\":{\"inner\":{\"x\":{\"id\":1}}},\"id\":3}", "{\"r\":{\"a\":1,\"a\":2,\"s\":\"lost\"},\"id\":3}",
            "{\"r\":{\"s\":{\"a\":[1,2.50,-0]},\"a\":1}}", "{\"rows\":[{\"k\":\"a\",\"v\":[\"1\",true]},5]}",
            "{\"rows\":[{\"v\":{\"x\":1},\"k\":\"b\"}],\"id\":1}", "{\"ms\":{\"a\":\"2\",\"b\":2.5,\"c\":[1]}}",
            "{\"deep\":[[[1,[2]]]],\"id\":1}", "{\"deep\":[[[1]],[[\"x\"]],[[{}]]]}", "{\"mm\":{\"o\":[\"i\"]}}",
            "{\"dc\":123456.7}", "{\"dc\":\"1e3\"}", "{\"dc\":9999.95}", "{\"dc\":9999.94}", "{\"dc\":-0.05}",
            "{\"dc\":1e999999999}", "{\"dc\":0e999999999}", "{\"dc\":1e-99999}", "{\"dc\":-5e-99999}", "{\"dc\":true}", "{\"dc\":[1]}",
            "{\"r\":null,\"arr\":null,\"m\":null,\"rows\":[null]}", "{\"m\":{}}", "{\"rows\":[]}",
            "{\"m\":{\"k\":1}" , "{\"arr\":[1,2", "{\"r\":{\"a\":1,\"s\":\"x\\q\"},\"id\":1}")),
            new RecordsCase(NO_DECIMAL, List.of(
                    "{\"s\":{\"a\":1.50,\"b\":1e400,\"c\":-0,\"d\":[0.0,1e-7],\"a\":\"\\u0001\\ud800\"},\"i\":1}",
                    "{\"s\":[12345678901234567890,1.0E10,\"\\\"/\\\\\"]}", "{\"arr\":[{\"x\":1},[2]],\"m\":{\"k\":[1]}}",
                    "{\"m\":{\"k\":{\"a\":1},\"j\":\"v\"}}", "{\"s\":[\"\uD83D\uDE00\",\"\u00e9\",\"\\u00e9\"]}")));

    /** Byte sequences that are not valid UTF-8, or that Jackson accepts though they are. */
    private static final List<String> BAD_UTF8 = List.of(
            "80", "ff", "fe", "c0 80", "c1 bf", "c3", "c3 28", "e2 82", "e2 28 a1", "ed a0 80", "ed b0 80",
            "ed a0 bd ed b8 80", "f0 9f 98", "f0 9f 98 80", "f4 90 80 80", "f5 80 80 80", "f8 88 80 80 80",
            "e0 80 80", "f0 80 80 80", "ef bf bf", "ef bb bf");

    record RecordsCase(RowType type, List<String> records) {}

    static List<Map<String, String>> options() {
        return List.of(
                Map.of(),
                Map.of("ignore-parse-errors", "true"),
                Map.of("fail-on-missing-field", "true"),
                Map.of("timestamp-format.standard", "ISO-8601"),
                Map.of("ignore-parse-errors", "true", "timestamp-format.standard", "ISO-8601"));
    }

    /**
     * Each spelling in each field, first in the record, the other fields after it with valid values (so
     * {@code fail-on-missing-field} rows compare too, and a value of the wrong shape meets real fields).
     */
    @ParameterizedTest
    @MethodSource("options")
    void everySpellingInEveryField(Map<String, String> options) {
        List<byte[]> records = new ArrayList<>();
        for (String field : SCALARS.getFieldNames()) {
            records.addAll(spellingRecords(options, field));
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(SCALARS, options, records);
        assertThat(result.rowsCompared() + result.recordsRejected() + result.nullRowsDropped())
                .isEqualTo(records.size());
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThan(records.size() / 4);
    }

    /** Records of {@link #SCALARS} with each spelling in {@code field}, first, and valid values in the others. */
    static List<byte[]> spellingRecords(Map<String, String> options, String field) {
        Map<String, String> valid = validValues(options);
        List<byte[]> records = new ArrayList<>();
        for (String value : VALUES) {
            if (field.endsWith("9") && outsideNanosecondRange(value)) {
                continue; // a named divergence, see nanosecondTimestampsOutOfRange
            }
            StringBuilder record = new StringBuilder("{\"").append(field).append("\":").append(value);
            valid.forEach((other, v) -> {
                if (!other.equals(field)) {
                    record.append(",\"").append(other).append("\":").append(v);
                }
            });
            records.add(utf8(record.append('}').toString()));
        }
        return records;
    }

    /** A valid JSON value for each field of {@link #SCALARS} in the timestamp standard of {@code options}. */
    static Map<String, String> validValues(Map<String, String> options) {
        boolean iso = "ISO-8601".equals(options.get("timestamp-format.standard"));
        String ts = iso ? "2020-01-02T03:04:05.123456789" : "2020-01-02 03:04:05.123456789";
        Map<String, String> valid = new java.util.LinkedHashMap<>();
        for (String field : SCALARS.getFieldNames()) {
            valid.put(field, switch (field) {
                case "b" -> "true";
                case "f", "d", "dc", "dc38" -> "1.25";
                case "s", "c" -> "\"abc\"";
                case "bin" -> "\"AQID\"";
                case "dt" -> "\"2020-01-02\"";
                case "tm" -> "\"12:34:56.789\"";
                case "ts", "ts0", "ts6", "ts9" -> "\"" + ts + "\"";
                case "ltz", "ltz9" -> "\"" + ts + "Z\"";
                default -> "7";
            });
        }
        return valid;
    }

    /**
     * DECIMAL number spellings at the edges of the long-arithmetic path: ties rounded HALF_UP both signs,
     * 18 and 19 digits, results one below and at {@code 10^p}, scales above and below the text's, in
     * columns of precision 1 to 38 (a precision above 18 may still fit a long, and a scale of 18 needs
     * 10^18), plus exponents and strings, which take {@code BigDecimal}.
     */
    @ParameterizedTest
    @MethodSource("options")
    void decimalNumbersAtLongEdges(Map<String, String> options) {
        RowType type = row("ROW<d1 DECIMAL(1, 0), d5 DECIMAL(5, 5), d10 DECIMAL(10, 2), d18 DECIMAL(18, 4),"
                + " d18s DECIMAL(18, 18), d19 DECIMAL(19, 0), d20 DECIMAL(20, 1), d38 DECIMAL(38, 18), d38s DECIMAL(38, 30)>");
        List<String> numbers = List.of("0", "-0", "0.0", "-0.000", "1", "-1", "9", "-9", "9.4", "9.5", "-9.5", "0.5",
                "-0.5", "0.49", "1.005", "-1.005", "1.004999", "1.015", "-1.015", "0.125", "-0.125", "0.99999",
                "0.999995", "-0.999995", "0.000005", "0.0000049", "99999999.99", "99999999.994", "99999999.995",
                "-99999999.995", "12345678.12345", "99999999999999.9999", "99999999999999.99995",
                "-99999999999999.99995", "999999999999999999", "-999999999999999999", "9999999999999999999",
                "9223372036854775807", "-9223372036854775808", "922337203685477580.7", "0.999999999999999999",
                "0.000000000000000001", "-0.0000000000000000005", "0.0000000000000000005", "123456789012345678",
                "12345678901234567.8", "1.23456789012345678", "1e2", "1.5E-3", "\"1.005\"", "\" 2.5 \"",
                // beyond 18 digits: the 128-bit path (no more fraction digits than the scale) or BigDecimal
                "123.450000000000000000", "-123.450000000000000000", "99999999999999999999.999999999999999999",
                "-99999999999999999999.999999999999999999", "100000000000000000000.000000000000000000",
                "12345678901234567890", "-12345678901234567890", "123456789012345678901", "0.000000000000000000001",
                "18446744073709551616", "-18446744073709551616", "18446744073709551615.5", "9223372036854775808.1",
                "1234567890123456789.1", "-9999999999999999999.9", "-9999999999999999999", "-10000000000000000000",
                "12345678.123456789012345678901234567890", "-0.000000000000000000000000000001",
                "0.000000000000000000000000000000", "1700000000000000000000000000000000000.5",
                "-170141183460469231731.687303715884105727");
        List<byte[]> records = new ArrayList<>();
        for (String field : type.getFieldNames()) {
            for (String number : numbers) {
                records.add(utf8("{\"" + field + "\":" + number + "}"));
            }
        }
        StringBuilder all = new StringBuilder("{");
        for (String field : type.getFieldNames()) {
            all.append(all.length() > 1 ? "," : "").append('"').append(field).append("\":-0.125");
        }
        records.add(utf8(all.append('}').toString()));
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, options, records);
        boolean failOnMissing = options.containsKey("fail-on-missing-field");
        assertThat(result.rowsCompared()).as("rows compared")
                .isGreaterThanOrEqualTo(failOnMissing ? 1 : records.size());
    }

    private static boolean outsideNanosecondRange(String value) {
        return value.matches("\"[-+]?\\d{4,5}-.*") && !value.matches("\"(19|20)\\d\\d-.*")
                || value.contains("1677-09-21") || value.contains("2262-04-11");
    }

    @ParameterizedTest
    @MethodSource("options")
    void recordStructure(Map<String, String> options) {
        List<byte[]> records = new ArrayList<>();
        for (String record : RECORDS) {
            records.add(utf8(record));
        }
        records.add(null);
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(SCALARS, options, records);
        boolean failOnMissing = options.containsKey("fail-on-missing-field");
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(failOnMissing ? 0 : 25);
    }

    @ParameterizedTest
    @MethodSource("options")
    void nestedTypes(Map<String, String> options) {
        for (RecordsCase c : NESTED_RECORDS) {
            List<byte[]> records = new ArrayList<>();
            for (String record : c.records()) {
                records.add(utf8(record));
            }
            JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(c.type(), options, records);
            boolean failOnMissing = options.containsKey("fail-on-missing-field");
            assertThat(result.rowsCompared()).as("rows compared")
                    .isGreaterThanOrEqualTo(failOnMissing ? 0 : c.records().size() / 3);
        }
    }

    @ParameterizedTest
    @MethodSource("options")
    void invalidUtf8Everywhere(Map<String, String> options) {
        List<byte[]> records = new ArrayList<>();
        for (String hex : BAD_UTF8) {
            String bytes = new String(HexFormat.of().parseHex(hex.replace(" ", "")), StandardCharsets.ISO_8859_1);
            for (String template : List.of("{\"s\":\"a%sb\"}", "{\"unknown\":\"%s\",\"i\":1}", "{\"%s\":1,\"i\":2}",
                    "{\"i\":1,%s\"s\":\"x\"}", "{\"b\":tru%s}", "{\"b\":true%s}", "{\"bin\":\"AQ%sID\"}",
                    "{\"c\":\"%s\"}", "{\"ts\":\"2020-01-02 03:04:05%s\"}", "{\"i\":\"1%s\"}")) {
                records.add(template.replace("%s", bytes).getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(SCALARS, options, records);
        assertThat(result.rowsCompared() + result.recordsRejected()).isGreaterThan(records.size() / 3);
    }

    /**
     * Invalid UTF-8 (and the other bytes the mutation property inserts) where a nested ROW's field name
     * starts, inside it, and in place of its quotes: in a ROW, a ROW in a ROW, a ROW in an ARRAY and in a
     * MAP, before and after fields that were read.
     */
    @ParameterizedTest
    @MethodSource("options")
    void badBytesAroundNestedFieldNames(Map<String, String> options) {
        List<String> bytes = new ArrayList<>();
        for (String hex : BAD_UTF8) {
            if (hex.startsWith("ff")) {
                continue; // a name whose last four-byte group starts with 0xFF: the named divergence
            }
            bytes.add(new String(HexFormat.of().parseHex(hex.replace(" ", "")), StandardCharsets.ISO_8859_1));
        }
        bytes.addAll(List.of("\u0001", "\"", "\\", ":", ",", "{", "}", "[", "]", " ", "e", "-", "0", "n"));
        List<String> templates = List.of(
                "{\"i\":1,\"r\":{%s\"x\":2,\"s\":\"a\"},\"t\":3}", "{\"i\":1,\"r\":{\"%s\"x\":2,\"s\":\"a\"},\"t\":3}",
                "{\"i\":1,\"r\":{\"x%s:2,\"s\":\"a\"},\"t\":3}", "{\"i\":1,\"r\":{%sx\":2,\"s\":\"a\"},\"t\":3}",
                "{\"i\":1,\"r\":{\"x%s\":2,\"s\":\"a\"},\"t\":3}", "{\"i\":1,\"r\":{\"x\"%s:2,\"s\":\"a\"},\"t\":3}",
                "{\"i\":1,\"r\":{\"x\":2,%s\"s\":\"a\"},\"t\":3}", "{\"i\":1,\"r\":{\"x\":2,%ss\":\"a\"},\"t\":3}",
                "{\"i\":1,\"r\":{\"x\":2,\"%ss\":\"a\"},\"t\":3}", "{\"r\":{\"q\":{%sx\":2},\"x\":1},\"t\":3}",
                "{\"r\":{\"q\":{\"%sx\":2},\"x\":1},\"t\":3}", "{\"a\":[{\"x\":1},{%sx\":2},{\"x\":3}],\"t\":3}",
                "{\"a\":[{\"x\":1},{\"%sx\":2},{\"x\":3}],\"t\":3}", "{\"m\":{\"k\":{%sx\":2},\"j\":{\"x\":3}},\"t\":3}",
                "{\"m\":{\"k\":{\"%sx\":2},\"j\":{\"x\":3}},\"t\":3}", "{%si\":1,\"t\":3}", "{\"%si\":1,\"t\":3}");
        List<byte[]> records = new ArrayList<>();
        for (String b : bytes) {
            for (String template : templates) {
                records.add(template.replace("%s", b).getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(row("ROW<i INT, r ROW<x INT, s STRING,"
                + " q ROW<x INT>>, a ARRAY<ROW<x INT>>, m MAP<STRING, ROW<x INT>>, t INT>"), options, records);
        assertThat(result.rowsCompared() + result.recordsRejected()).isGreaterThan(records.size() / 5);
    }

    /** Bytes a single edit puts into a record: structure, string and number syntax, invalid UTF-8 (not 0xFF). */
    private static final byte[] EDIT_BYTES = {'{', '}', '[', ']', ',', ':', '"', '\\', ' ', 'e', '-', '0', 'n', 't',
        'u', 0x01, (byte) 0x80, (byte) 0xBC, (byte) 0xC3, (byte) 0xED, (byte) 0xF0, (byte) 0xFE};

    /**
     * Every single-byte edit (deleted, replaced, inserted) at every position of records whose nested ROWs
     * have escaped and non-ASCII field names, as Flink's serializer spells them.
     */
    @ParameterizedTest
    @MethodSource("options")
    void everySingleByteEditOfNestedRecords(Map<String, String> options) {
        RowType type = row("ROW<i INT, `\u00fc\u20ac\uD83D\uDE00` ROW<`a\"b` INT, `ctl\u0001` STRING,"
                + " `x y` ARRAY<ROW<`/` INT>>>, m MAP<STRING, ROW<f INT>>, t INT>");
        List<byte[]> originals = List.of(
                utf8("{\"i\":1,\"\u00fc\u20ac\\uD83D\\uDE00\":{\"a\\\"b\":2,\"ctl\\u0001\":\"s\","
                        + "\"x y\":[{\"/\":3}]},\"m\":{\"k\":{\"f\":4}},\"t\":5}"),
                utf8("{\"\u00fc\u20ac\\uD83D\\uDE00\":{\"ctl\\u0001\":\"\u00e9\",\"a\\\"b\":-2},\"i\":1}"));
        List<byte[]> records = new ArrayList<>();
        for (byte[] original : originals) {
            for (int at = 0; at < original.length; at++) {
                records.add(splice(original, at, 1, new byte[0]));
                for (byte b : EDIT_BYTES) {
                    records.add(splice(original, at, 1, new byte[] {b}));
                    records.add(splice(original, at, 0, new byte[] {b}));
                }
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, options, records);
        assertThat(result.rowsCompared() + result.recordsRejected()).isGreaterThan(records.size() / 5);
    }

    /**
     * The word-at-a-time paths: a string value (read, and skipped as an unknown field's) with a quote, an
     * escape, a control character, multi-byte UTF-8 or invalid UTF-8 at every position of the first three
     * eight-byte words; field names of every length around a word, some differing only in their last byte,
     * in schema order, out of order, cut short or one byte longer, and at the very end of the record's bytes.
     */
    @ParameterizedTest
    @MethodSource("options")
    void wordAtATimeStringsAndFieldNames(Map<String, String> options) {
        List<String> specials = List.of("\\\"", "\\n", "\\u00e9", "\\ud83d\\ude00", "\u0001", "\u00e9", "\u65e5",
                "\uD83D\uDE00");
        // Written as raw bytes (ISO-8859-1): invalid UTF-8, a cut sequence, an encoded surrogate.
        List<String> rawBytes = List.of("\u00ff\u00fe", "\u00c3", "\u00ed\u00a0\u0080");
        List<byte[]> records = new ArrayList<>();
        for (int length = 0; length <= 24; length++) {
            String plain = "abcdefghijklmnopqrstuvwxyz".substring(0, length);
            records.add(utf8("{\"s\":\"" + plain + "\",\"i\":1}"));
            for (int at = 0; at <= length; at++) {
                for (String template : List.of("{\"s\":\"%s\",\"i\":1}", "{\"x\":\"%s\",\"i\":1}")) {
                    for (String special : specials) {
                        records.add(utf8(template.replace("%s", plain.substring(0, at) + special + plain.substring(at))));
                    }
                    for (String special : rawBytes) {
                        records.add(template.replace("%s", plain.substring(0, at) + special + plain.substring(at))
                                .getBytes(StandardCharsets.ISO_8859_1));
                    }
                }
            }
        }
        JsonDecodeCheck.Result strings = JsonDecodeCheck.assertParity(row("ROW<s STRING, i INT>"), options, records);
        // (fail-on-missing-field rejects the records of an unknown field, which lack s)
        assertThat(strings.rowsCompared()).as("rows compared").isGreaterThan(records.size() / 3);

        List<String> names = List.of("a", "ab", "abcdefg", "abcdefgh", "abcdefgx", "abcdefghi", "abcdefghijklmno",
                "abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijklmnopq", "\u00e9t\u00e9", "abcdefghijklmnopqrstuvwxyz");
        StringBuilder type = new StringBuilder("ROW<");
        for (int k = 0; k < names.size(); k++) {
            type.append(k > 0 ? ", `" : "`").append(names.get(k)).append("` INT");
        }
        RowType wide = row(type.append('>').toString());
        List<String> spellings = new ArrayList<>();
        for (String name : names) {
            spellings.addAll(List.of(name, name.substring(0, name.length() - 1), name + "z",
                    name.substring(0, name.length() - 1) + "Z"));
        }
        records = new ArrayList<>();
        StringBuilder inOrder = new StringBuilder("{");
        StringBuilder reversed = new StringBuilder("{");
        for (int k = 0; k < names.size(); k++) {
            inOrder.append(k > 0 ? "," : "").append('"').append(names.get(k)).append("\":").append(k);
            reversed.append(k > 0 ? "," : "").append('"').append(names.get(names.size() - 1 - k)).append("\":").append(k);
        }
        records.add(utf8(inOrder.append('}').toString()));
        records.add(utf8(reversed.append('}').toString()));
        for (int k = 0; k < spellings.size(); k++) {
            String name = spellings.get(k);
            records.add(utf8("{\"" + name + "\":" + k + ",\"a\":1}"));
            records.add(utf8("{\"a\":1,\"" + name + "\":" + k + "}"));
            records.add(utf8("{\"a\":1,\"" + name + "\""));
            records.add(utf8("{\"a\":1,\"" + name + "\":"));
            records.add(utf8("{\"a\":1,\"" + name));
        }
        JsonDecodeCheck.Result fields = JsonDecodeCheck.assertParity(wide, options, records);
        assertThat(fields.rowsCompared()).as("rows compared")
                .isGreaterThanOrEqualTo(options.containsKey("fail-on-missing-field") ? 1 : spellings.size() * 2);
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }

    /**
     * One nesting shape with a hole for a value: a ROW in a MAP, a MAP in an ARRAY, an ARRAY in a ROW, a
     * MAP in a MAP, an ARRAY in a MAP, a MAP in a ROW in an ARRAY, a MAP key, the top level.
     */
    static final List<RecordsCase> NESTING_SHAPES = List.of(
            new RecordsCase(row("ROW<m MAP<STRING, ROW<a INT, s STRING>>, i INT>"),
                    List.of("{\"m\":{\"k\":{\"a\":1,\"s\":%s},\"j\":{\"a\":2}},\"i\":3}",
                            "{\"m\":{\"k\":{\"a\":1},\"l\":%s},\"i\":3}")),
            new RecordsCase(row("ROW<a ARRAY<MAP<STRING, INT>>, i INT>"),
                    List.of("{\"a\":[{\"k\":%s,\"j\":2},{\"x\":3}],\"i\":3}", "{\"a\":[{\"k\":1},%s],\"i\":3}")),
            new RecordsCase(row("ROW<r ROW<arr ARRAY<INT>, b BOOLEAN>, i INT>"),
                    List.of("{\"r\":{\"arr\":[1,%s,3],\"b\":true},\"i\":3}", "{\"r\":{\"b\":%s,\"arr\":[]},\"i\":3}")),
            new RecordsCase(row("ROW<mm MAP<STRING, MAP<STRING, STRING>>, i INT>"),
                    List.of("{\"mm\":{\"o\":{\"i\":%s,\"k\":\"l\"},\"p\":{\"q\":\"r\"}},\"i\":3}")),
            new RecordsCase(row("ROW<m MAP<STRING, ARRAY<STRING>>, i INT>"),
                    List.of("{\"m\":{\"k\":[%s,\"b\"],\"j\":[]},\"i\":3}")),
            new RecordsCase(row("ROW<a ARRAY<ROW<m MAP<STRING, BIGINT>, b BOOLEAN>>, i INT>"),
                    List.of("{\"a\":[{\"m\":{\"x\":%s,\"y\":2},\"b\":false},{\"b\":true}],\"i\":3}")),
            new RecordsCase(row("ROW<m MAP<STRING, INT>, i INT>"),
                    List.of("{\"m\":{\"k\":1,%s:2,\"j\":3},\"i\":3}", "{\"m\":{\"k\":1,\"l\":%s},\"i\":3}")),
            new RecordsCase(row("ROW<s STRING, i INT>"), List.of("{\"s\":%s,\"i\":3}")));

    /**
     * Values put into every hole of {@link #NESTING_SHAPES} (ISO-8859-1, so a char is one byte): literals
     * and numbers cut short or followed by bytes that are not UTF-8, escapes of such bytes, non-numeric
     * numbers, broken structure, and valid values to compare.
     */
    static final List<String> HOLE_VALUES = List.of(
            "null\u0080", "null\u00c3", "null\u00ed", "null\u00f0", "null\u00ff", "true\u00bf", "false\u00f8",
            "nullx", "null1", "tru", "nul", "1.", "1e", "-", "01", "1\u00ff", "\"a\\\u00edn\"", "\"a\\\u00f0\"", "\"a\\\u0080\"",
            "\"a\\\u00c3\u00a9\"", "\"\\x\"", "\"\\u12G4\"", "\"a\u00ffb\"", "\"a\u00c3\"", "\"unterminated", "{", "[", "[1,",
            "{\"a\":", "}", "]", ",", ":", "\"ok\"", "1", "[1]", "{\"a\":1}", "null", "true",
            "\"\\ud83d\\ude00\\u00e9\\n\"", "\"\\ud83d\"", "NaN", "NaN\"", "Infinity", "Infinityx", "-Infinity", "-INF",
            "+INF", "+Infinity", "-Ix", "-I", "+1", "+");

    /**
     * A malformed value at every nesting level: Flink's converters catch a failure at the innermost
     * nullable converter around it, and where the parser then stands decides what the enclosing ones
     * read; every record must come out (rows, nulls, entries, rejection) as Flink's.
     */
    @ParameterizedTest
    @MethodSource("options")
    void malformedValuesAtEveryNestingLevel(Map<String, String> options) {
        int compared = 0;
        int rejected = 0;
        int records = 0;
        for (RecordsCase shape : NESTING_SHAPES) {
            List<byte[]> batch = new ArrayList<>();
            for (String template : shape.records()) {
                for (String value : HOLE_VALUES) {
                    batch.add(template.replace("%s", value).getBytes(StandardCharsets.ISO_8859_1));
                }
            }
            JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(shape.type(), options, batch);
            compared += result.rowsCompared();
            rejected += result.recordsRejected();
            records += batch.size();
        }
        boolean failOnMissing = options.containsKey("fail-on-missing-field");
        assertThat(compared).as("rows compared").isGreaterThanOrEqualTo(failOnMissing ? 0 : 40);
        if (options.containsKey("ignore-parse-errors")) {
            assertThat(compared).as("rows compared under ignore-parse-errors").isGreaterThan(records / 4);
        } else {
            assertThat(rejected).as("records rejected like Flink").isGreaterThan(records / 4);
        }
    }

    /** Pieces of long string values: plain runs of every length, escapes, raw and escaped non-BMP text. */
    private static final List<String> STRING_PIECES = List.of(
            "a", "plain ascii run", "0123456789abcdef0123", "\\n", "\\\"", "\\\\", "\\/", "\\b\\f\\r\\t",
            "\\u0000", "\\u001f", "\\u0041", "\\u00e9", "\\u07ff", "\\u0800", "\\u20ac", "\\uffff", "\\uD83D\\uDE00",
            "\\ud83d\\ude00", "\\uDBFF\\uDFFF", "\\ud800", "\\udc00", "\\ud83dx", "\\ud83d\\u0041", "\u00e9", "\u20ac",
            "\uD83D\uDE00", "\u0001", "\t");

    /**
     * Long string values (up to ~60 pieces each) mixing plain runs that cross eight-byte words with every
     * kind of escape, raw non-ASCII and non-BMP text and lone surrogates, in a STRING field and as MAP
     * keys and values; a few end in a bad escape or byte. The decoder takes its UTF-8 path for escaped
     * strings and must store exactly Flink's bytes.
     */
    @ParameterizedTest
    @MethodSource("options")
    void longEscapedStrings(Map<String, String> options) {
        java.util.Random random = new java.util.Random(20261201);
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 400; r++) {
            StringBuilder value = new StringBuilder();
            int pieces = random.nextInt(60);
            for (int p = 0; p < pieces; p++) {
                value.append(STRING_PIECES.get(random.nextInt(STRING_PIECES.size())));
            }
            String tail = switch (random.nextInt(40)) {
                case 0 -> "\\x";
                case 1 -> "\\u12";
                case 2 -> "\u0000";
                default -> "";
            };
            byte[] text = (value + tail).getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(40) == 0 && text.length > 0) {
                text[random.nextInt(text.length)] = (byte) 0xC3; // a broken sequence somewhere
            }
            String v = new String(text, StandardCharsets.ISO_8859_1);
            String record = "{\"s\":\"" + v + "\",\"m\":{\"" + v + "\":\"" + v + "\",\"k\":\"" + v + "x\"},\"i\":1}";
            records.add(record.getBytes(StandardCharsets.ISO_8859_1));
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(
                row("ROW<s STRING, m MAP<STRING, STRING>, i INT>"), options, records);
        boolean failOnMissing = options.containsKey("fail-on-missing-field");
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThan(failOnMissing ? 200 : 300);
    }

    /**
     * Records on which Flink's deserializer never returns ({@link PastEndParsers}): under ignore-parse-errors a
     * map of INT fed {@code [1,2]} takes {@code 1, 2, ]} and its own closing brace as keys and values, so the parser
     * leaves the map, the array and the record while the array and map converters still wait for their end tokens.
     * Ours fails each such record, naming it, with or without ignore-parse-errors (without it Flink fails the
     * record at the first bad value, as ours does); the records around it decode as Flink's.
     */
    @ParameterizedTest
    @MethodSource("options")
    void recordsFlinkNeverReturnsOnFail(Map<String, String> options) {
        List<byte[]> records = List.of(utf8("{\"a\":[{\"k\":1}],\"m\":{}}"), utf8("{\"a\":[{\"k\":[1,2]}]}"),
                utf8("{\"a\":[{\"k\":[1,2]}],\"m\":{\"k\":[1,2]}}"), utf8("{\"m\":{\"k\":{\"x\":[1,2,3,4]}}}"),
                utf8("[{\"a\":[]},{\"m\":{\"k\":[1,2]}},{\"a\":[]}]"), utf8("{\"m\":{\"k\":2},\"a\":null}"));
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(
                row("ROW<a ARRAY<MAP<STRING, INT>>, m MAP<STRING, INT>>"), options, records);
        if (options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsNeverReturned()).as("records Flink never returns on").isGreaterThanOrEqualTo(2);
        }
        assertThat(result.rowsCompared()).isGreaterThanOrEqualTo(2);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static RowType row(String type) {
        return (RowType) LogicalTypeParser.parse(type, JsonDecodeCorpusTest.class.getClassLoader());
    }
}
