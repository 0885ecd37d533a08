package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decoder's shortcuts that skip a scan, against Flink's deserializer ({@link JsonDecodeCheck}) under
 * each option set of {@link JsonDecodeCorpusTest}: the field name expected next (the schema order) taken by
 * one comparison of its bytes and closing quote, and dates and timestamps parsed straight from the record
 * when their closing quote follows the canonical text. Each case is built so the shortcut meets what it
 * must refuse: the expected name extended, cut, changed in its last byte, escaped, cut off by the record's
 * end at every byte, names a record must escape, multi-byte and non-BMP names; timestamps with 0–10
 * fraction digits, pre-1970, year 0001 and 9999, leap days, followed by something other than their quote.
 */
class JsonDecodeFastPathTest {
    /** Field names (as the row type has them) around eight- and sixteen-byte words, and some a record escapes. */
    private static final List<String> NAMES = List.of("a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno",
            "abcdefghijklmnop", "abcdefghijklmnopq", "\u00e9t\u00e9", "\uD83D\uDE00", "tab\tx", "a\"b", "a\\b");

    static List<Map<String, String>> options() {
        return JsonDecodeCorpusTest.options();
    }

    @ParameterizedTest
    @MethodSource("options")
    void expectedFieldNames(Map<String, String> options) {
        List<LogicalType> types = new ArrayList<>();
        List<String> names = new ArrayList<>(NAMES);
        for (int k = 0; k < NAMES.size(); k++) {
            types.add(k % 3 == 1 ? new VarCharType(VarCharType.MAX_LENGTH) : new IntType());
        }
        names.add("r");
        types.add(row("ROW<abcdefgh INT, x STRING>"));
        RowType type = RowType.of(types.toArray(new LogicalType[0]), names.toArray(new String[0]));

        List<byte[]> records = new ArrayList<>();
        records.add(utf8(record(-1, null)));
        for (int k = 0; k < NAMES.size(); k++) {
            String name = jsonName(NAMES.get(k));
            List<String> spellings = new ArrayList<>(List.of(name + "z", name.substring(0, name.length() - 1),
                    name.substring(0, name.length() - 1) + "Z", "Z" + name, name.toUpperCase()));
            char first = NAMES.get(k).charAt(0);
            spellings.add(String.format("\\u%04x", (int) first) + name.substring(name.startsWith("\\") ? 2 : 1));
            for (String spelling : spellings) {
                records.add(utf8(record(k, spelling)));
            }
            // The record cut at every byte from the name's opening quote to just after its colon.
            byte[] whole = utf8(record(-1, null));
            int at = k == 0 ? 1 : indexOf(whole, utf8(",\"" + name + "\":")) + 1;
            for (int cut = at; cut <= at + utf8(name).length + 3; cut++) {
                records.add(java.util.Arrays.copyOf(whole, cut));
            }
        }
        // The names in reverse order: no name is the expected one but the first.
        StringBuilder reversed = new StringBuilder("{");
        for (int k = NAMES.size() - 1; k >= 0; k--) {
            reversed.append('"').append(jsonName(NAMES.get(k))).append("\":").append(value(k)).append(',');
        }
        records.add(utf8(reversed.append("\"r\":{\"x\":\"y\",\"abcdefgh\":2}}").toString()));
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, options, records);
        int minimum = options.containsKey("fail-on-missing-field") ? 3 : NAMES.size() * 6;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(0);
        }
    }

    @ParameterizedTest
    @MethodSource("options")
    void timestampsStraightFromTheRecord(Map<String, String> options) {
        RowType type = row("ROW<ts TIMESTAMP(3), ts0 TIMESTAMP(0), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(3),"
                + " ltz9 TIMESTAMP_LTZ(9), dt DATE, i INT>");
        List<String> dateTimes = List.of("2020-01-02 03:04:05", "1969-12-31 23:59:59", "1900-02-28 12:00:00",
                "0001-01-01 00:00:00", "9999-12-31 23:59:59", "2000-02-29 00:00:00", "1970-01-01 00:00:00");
        List<String> texts = new ArrayList<>();
        for (String dateTime : dateTimes) {
            for (int digits = 0; digits <= 10; digits++) {
                String fraction = digits == 0 ? "" : "." + "9876543210".substring(0, digits);
                for (String separator : List.of(" ", "T")) {
                    String text = dateTime.replace(" ", separator) + fraction;
                    texts.add(text);
                    texts.add(text + "Z");
                }
            }
        }
        List<String> bent = List.of("2020-01-02 03:04:05.123 ", "2020-01-02 03:04:05.123\\u0030",
                "2020-01-02 03:04:05\\u002e5", "2020-01-02\\u002003:04:05", "\\u0032020-01-02 03:04:05",
                "2020-01-02 03:04:05.\\\"", "2020-01-02 03:04:05.123Z ", "2020-01-02 03:04:05.123\\\\",
                "2020-01-02 03:04:05.12\u00e9", "2020-01-02", "2020-01-02 ", "2020-01-02\\u0020", "2021-02-29",
                "2020-01-02 24:00:00", "2020-01-02 03:04:60", "2020-01-02 03:04:05.", "2020-01-02x");
        texts.addAll(bent);
        List<String> fields = List.of("ts", "ts0", "ts9", "ltz", "ltz9", "dt");
        List<byte[]> records = new ArrayList<>();
        for (String text : texts) {
            for (String field : fields) {
                if (field.endsWith("9") && (text.startsWith("0001") || text.startsWith("9999"))) {
                    continue; // outside Arrow nanoseconds: a named divergence (docs/formats-text.md)
                }
                records.add(utf8("{\"" + field + "\":\"" + text + "\",\"i\":1}"));
                records.add(utf8("{\"i\":1,\"" + field + "\":\"" + text + "\"}"));
            }
            // At the record's end: with its quote and nothing after it, and cut before the quote.
            records.add(utf8("{\"i\":1,\"ts\":\"" + text + "\""));
            records.add(utf8("{\"i\":1,\"ts\":\"" + text));
        }
        for (String date : List.of("1969-12-31", "0001-01-01", "9999-12-31", "2000-02-29", "2100-02-29")) {
            records.add(utf8("{\"dt\":\"" + date + "\",\"i\":1}"));
            records.add(utf8("{\"i\":1,\"dt\":\"" + date + "\""));
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, options, records);
        int minimum = options.containsKey("fail-on-missing-field") ? 0 : texts.size();
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(0);
        }
    }

    /**
     * What may stand around an expected name's {@code ,"name":} and start its value: the one-step path takes
     * exactly the compact spelling and leaves everything else to the general scan (whitespace and control
     * characters before and after the comma and the colon, a comment, a non-ASCII byte, the object's end),
     * and plain integers to the full number grammar as soon as a point, an exponent or a 19th digit follows.
     */
    @ParameterizedTest
    @MethodSource("options")
    void separatorsAroundTheExpectedName(Map<String, String> options) {
        List<String> gaps = List.of("", " ", "\n", "\t", "\r\n ", "\u0001", "/", "/* c */", "\u00e9", "}", "]");
        List<String> values = List.of("7", "12", "-3", "0", "07", "7.", "7.5", "7e", "7E2", "7.5e-1", "12e+3",
                "123456789012345678", "1234567890123456789", "12345678901234567890", "true", "null", "\"s\"", "[1]",
                "{}", "1x", "1\"");
        List<byte[]> records = new ArrayList<>();
        for (String gap : gaps) {
            String g = unescape(gap);
            for (String value : values) {
                String v = unescape(value);
                records.add(utf8("{\"i\":1" + g + ",\"b\":" + v + ",\"s\":\"x\"}"));
                records.add(utf8("{\"i\":1," + g + "\"b\":" + v + ",\"s\":\"x\"}"));
                records.add(utf8("{\"i\":1,\"b\"" + g + ":" + v + ",\"s\":\"x\"}"));
                records.add(utf8("{\"i\":1,\"b\":" + g + v + ",\"s\":\"x\"}"));
                records.add(utf8("{" + g + "\"i\":" + v + ",\"b\":1}"));
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(row("ROW<i BIGINT, b BIGINT, s STRING>"), options,
                records);
        int minimum = options.containsKey("fail-on-missing-field") ? 20 : 200;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(0);
        }
    }

    /**
     * A value that fails right where the one-step path starts it (the expected name matched, the value's first
     * bytes scanned), in the first, a middle and the last field, alone and as the middle row of a top-level
     * array: under {@code ignore-parse-errors} the rows after it are read from wherever the failure left the
     * tokenizer, so it must stand where Flink's parser stands (a bad number, literal or character, {@code null}
     * misspelt, cut or run on into an identifier or a non-ASCII byte, and nesting past Jackson's limit of 1000,
     * which fails when the value's scope opens); and the same rows nested in a row that goes on after them.
     */
    @ParameterizedTest
    @MethodSource("options")
    void valuesFailingInTheOneStepPath(Map<String, String> options) {
        List<String> values = List.of("07", "7.", "7e", "-", "-x", "+1", "1x", "tru", "nul", "fals", "truex", "nulll",
                "nu", "nulL", "nUll", "null1", "null\u00e9", "null\u00ff", "x", "'s'", "]", "}", ",", "\"",
                "[".repeat(1001) + "]".repeat(1001), "[".repeat(990) + "]".repeat(990));
        List<byte[]> records = new ArrayList<>();
        // null's three bytes after its 'n' compared at once: the record cut inside them, and null as the last bytes
        for (String cut : List.of("{\"i\":1,\"b\":n", "{\"i\":1,\"b\":nu", "{\"i\":1,\"b\":nul",
                "{\"i\":1,\"b\":null", "{\"i\":1,\"b\":null}")) {
            records.add(utf8(cut));
        }
        String good = "{\"i\":1,\"b\":2,\"s\":\"x\"}";
        for (String value : values) {
            records.add(utf8(good));
            for (String bad : List.of("{\"i\":" + value + ",\"b\":2,\"s\":\"x\"}",
                    "{\"i\":1,\"b\":" + value + ",\"s\":\"x\"}", "{\"i\":1,\"b\":2,\"s\":" + value + "}")) {
                records.add(utf8(bad));
                records.add(utf8("[" + good + "," + bad + ",{\"i\":3,\"b\":4,\"s\":\"z\"}]"));
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(row("ROW<i BIGINT, b BIGINT, s STRING>"), options,
                records);
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(values.size());
        // The same rows nested: the outer row goes on from where the nested row's failure left the tokenizer.
        List<byte[]> nested = new ArrayList<>();
        for (byte[] record : records) {
            String inner = new String(record, StandardCharsets.UTF_8);
            nested.add(utf8("{\"i\":0,\"r\":" + inner + ",\"s\":\"after\",\"b\":5}"));
        }
        JsonDecodeCheck.Result nestedResult = JsonDecodeCheck.assertParity(
                row("ROW<i BIGINT, r ROW<i BIGINT, b BIGINT, s STRING>, s STRING, b BIGINT>"), options, nested);
        assertThat(nestedResult.rowsCompared()).as("nested rows compared").isGreaterThanOrEqualTo(values.size());
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(0);
            assertThat(nestedResult.recordsRejected()).as("nested records rejected").isGreaterThan(0);
        }
    }

    /** Java-escaped test text ({@code \\n}, {@code \\t}, {@code \\r}, {@code \\uXXXX}) as the chars it stands for. */
    private static String unescape(String text) {
        return text.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r")
                .replace("\\u0001", "\u0001").replace("\\u00e9", "\u00e9");
    }

    /**
     * Integers of 1 to 20 digits, either sign, at and around every integer type's limits: values of up to
     * 18 digits are taken as summed while the tokenizer scanned them, 19 digits are range-checked once.
     */
    @ParameterizedTest
    @MethodSource("options")
    void integersOfEveryLength(Map<String, String> options) {
        List<String> numbers = new ArrayList<>(List.of("0", "-0", "127", "128", "-128", "-129", "32767", "32768",
                "-32768", "-32769", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1.5", "-7e2"));
        for (int digits = 1; digits <= 20; digits++) {
            for (String n : List.of("9".repeat(digits), "1" + "0".repeat(digits - 1), "123456789012345678901".substring(0, digits))) {
                numbers.add(n);
                numbers.add("-" + n);
            }
        }
        List<byte[]> records = new ArrayList<>();
        for (String n : numbers) {
            for (String field : List.of("ti", "si", "i", "bi")) {
                records.add(utf8("{\"" + field + "\":" + n + ",\"s\":\"x\"}"));
                records.add(utf8("{\"s\":\"x\",\"" + field + "\":" + n + "}"));
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(
                row("ROW<ti TINYINT, si SMALLINT, i INT, bi BIGINT, s STRING>"), options, records);
        int minimum = options.containsKey("fail-on-missing-field") ? 0 : numbers.size() * 2;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
    }

    /**
     * An integer's first eight bytes are read as one word (its leading digits found and summed at once, see
     * {@code JsonTokenizer.leadingDigits}): integers of 1–10 digits, random digits and every digit in every
     * place, followed by each kind of byte (the ones either side of {@code 0}–{@code 9}, a fraction, an
     * exponent, whitespace, a letter, multi-byte UTF-8, bytes 0xFA–0xFF whose sum carries), in the middle of
     * the record and at its end, whole and cut at every byte, so the word sometimes does not fit.
     */
    @ParameterizedTest
    @MethodSource("options")
    void integersReadAWordAtATime(Map<String, String> options) {
        java.util.Random random = new java.util.Random(20261203);
        List<String> numbers = new ArrayList<>();
        for (int digits = 1; digits <= 10; digits++) {
            for (int k = 0; k < 3; k++) {
                StringBuilder n = new StringBuilder().append((char) ('1' + random.nextInt(9)));
                while (n.length() < digits) {
                    n.append((char) ('0' + random.nextInt(10)));
                }
                numbers.add(n.toString());
            }
        }
        for (char d = '0'; d <= '9'; d++) {
            numbers.add("1" + d + "2345678");
            numbers.add("123" + d + "45");
            numbers.add(d == '0' ? "1" : String.valueOf(d));
        }
        List<byte[]> followers = new ArrayList<>();
        for (String follower : List.of(",", "}", " ,", "\t}", ".5,", "e2,", "E+2}", "/,", ":,", "x,", "\u00e9,", "\u65e5}")) {
            followers.add(utf8(follower));
        }
        for (int b = 0xFA; b <= 0xFF; b++) {
            followers.add(new byte[] {(byte) b, ','});
        }
        List<byte[]> records = new ArrayList<>();
        for (String n : numbers) {
            for (byte[] follower : followers) {
                records.add(concat(utf8("{\"bi\":" + n), follower, utf8("\"s\":\"x\"}")));
                records.add(concat(utf8("{\"bi\":" + n), follower, utf8("\"s\":\"abcdefgh\"}")));
                byte[] last = concat(utf8("{\"s\":\"x\",\"bi\":" + n), follower);
                for (int cut = last.length - follower.length - n.length(); cut <= last.length; cut++) {
                    records.add(java.util.Arrays.copyOf(last, cut));
                }
            }
            records.add(utf8("{\"s\":\"x\",\"bi\":" + n + "}"));
            records.add(utf8("{\"i\":" + n + ",\"s\":\"x\"}"));
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(row("ROW<bi BIGINT, i INT, s STRING>"), options,
                records);
        int minimum = options.containsKey("fail-on-missing-field") ? 0 : numbers.size() * 4;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
    }

    /**
     * String values that end the record (its last word is read as the word ending there, shifted, both when a
     * string is scanned and when it is copied into its column while scanned), whole and cut at every byte, with a
     * quote, an escape, a control character (NUL among them, the byte the shifted word is filled with: a string
     * holding one goes on past it, a string cut off by the record's end fails), multi-byte, non-BMP or invalid
     * UTF-8 at every position of their last eight bytes; records shorter than a word.
     */
    @ParameterizedTest
    @MethodSource("options")
    void stringsAtTheRecordsEnd(Map<String, String> options) {
        List<String> specials = List.of("", "\\\"", "\\n", "\\u00e9", "\\ud83d\\ude00", "\u0001", "\u00e9", "\u65e5",
                "\uD83D\uDE00", "\\");
        List<byte[]> specialBytes = new ArrayList<>();
        for (String special : specials) {
            specialBytes.add(utf8(special));
        }
        specialBytes.add(new byte[] {0});
        specialBytes.add(new byte[] {(byte) 0xff});
        specialBytes.add(new byte[] {(byte) 0xc3});
        specialBytes.add(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80});
        specialBytes.add(new byte[] {(byte) 0xf0, (byte) 0x9f, (byte) 0x98});
        List<byte[]> records = new ArrayList<>();
        for (String prefix : List.of("{\"s\":\"", "{\"i\":1,\"s\":\"")) {
            for (int length = 0; length <= 10; length++) {
                String plain = "abcdefghij".substring(0, length);
                for (int at = 0; at <= length; at++) {
                    for (byte[] special : specialBytes) {
                        byte[] whole = concat(utf8(prefix + plain.substring(0, at)), special,
                                utf8(plain.substring(at) + "\"}"));
                        records.add(whole);
                        if (at == 0 || at == length) {
                            for (int cut = prefix.length() - 1; cut < whole.length; cut++) {
                                records.add(java.util.Arrays.copyOf(whole, cut));
                            }
                        }
                    }
                }
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(row("ROW<s STRING, i INT>"), options, records);
        int minimum = options.containsKey("fail-on-missing-field") ? 100 : 500;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
    }

    /**
     * Plain strings are copied into the column while they are scanned when the data buffer has room for the
     * rest of the record; here one of six string columns takes nearly all the bytes, so its buffer (sized as
     * a sixth of the batch) runs out mid-batch: strings near the end of the room take the scan-then-copy path
     * that grows the buffer, and the fused path resumes after it. Lengths 0–300, some with escapes or
     * multi-byte text.
     */
    @ParameterizedTest
    @MethodSource("options")
    void plainStringsCopiedWhileScanned(Map<String, String> options) {
        java.util.Random random = new java.util.Random(20261202);
        List<byte[]> records = new ArrayList<>();
        for (int r = 0; r < 400; r++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(301);
            for (int k = 0; k < length; k++) {
                int kind = random.nextInt(100);
                text.append(kind == 0 ? "\\n" : kind == 1 ? "\u00e9" : kind == 2 ? "\uD83D\uDE00" : kind == 3 ? "\u0001"
                        : (char) ('a' + random.nextInt(26)));
            }
            records.add(utf8("{\"s1\":\"" + text + "\",\"s2\":\"\",\"s3\":\"x\",\"s4\":null,\"s5\":\"y"
                    + r + "\",\"s6\":\"" + text.length() + "\"}"));
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(
                row("ROW<s1 STRING, s2 STRING, s3 STRING, s4 STRING, s5 STRING, s6 STRING>"), options, records);
        assertThat(result.rowsCompared()).as("rows compared").isEqualTo(records.size());
    }

    /**
     * The row loop's schema-order step (each field the name expected next, read without a lookup, and no null to
     * fill when all are there) and where it hands over to the general loop, against Flink: names that are another
     * field's prefix or extension, an escaped spelling of the expected name, fields swapped and reversed, a field
     * repeated (before the arity is reached, so it hides a later field, and after it), unknown fields, fields
     * missing, extra fields after a complete row, values of the wrong shape mid-row, a space before a colon, nested
     * rows in and out of order, the rows of a top-level array in and out of order, and records cut at every byte
     * of their last thirty (a name split where its word ends).
     */
    @ParameterizedTest
    @MethodSource("options")
    void rowsInAndOutOfSchemaOrder(Map<String, String> options) {
        RowType type = row("ROW<a INT, ab STRING, abc BIGINT, r ROW<x INT, xy STRING>, abcdefgh STRING,"
                + " d DOUBLE>");
        List<String> inOrder = List.of("\"a\":1", "\"ab\":\"s\"", "\"abc\":3", "\"r\":{\"x\":1,\"xy\":\"q\"}",
                "\"abcdefgh\":\"long enough\"", "\"d\":2.5");
        List<List<String>> rows = new ArrayList<>();
        rows.add(inOrder);
        for (int k = 0; k < inOrder.size(); k++) {
            rows.add(inOrder.subList(0, k));
            List<String> swapped = new ArrayList<>(inOrder);
            java.util.Collections.swap(swapped, k, (k + 1) % inOrder.size());
            rows.add(swapped);
            List<String> repeated = new ArrayList<>(inOrder);
            repeated.add(k + 1, inOrder.get(k));
            rows.add(repeated);
            List<String> repeatedEarlier = new ArrayList<>(inOrder);
            repeatedEarlier.add(k + 1, inOrder.get(0));
            rows.add(repeatedEarlier);
        }
        List<String> reversed = new ArrayList<>(inOrder);
        java.util.Collections.reverse(reversed);
        rows.add(reversed);
        List<String> inserts = List.of("\"abcd\":5", "\"abcdefg\":\"x\"", "\"abcdefghi\":\"x\"", "\"A\":1",
                "\"\\u0061b\":\"escaped\"", "\"zz\":[1,{\"a\":2}]", "\"a\":9", "\"ab\":\"later\"", "\"abc\":[1,2]",
                "\"abc\":{\"k\":1}", "\"a\":\"x\"", "\"r\":5", "\"r\":{\"xy\":\"q\",\"x\":1}", "\"r\":{\"x\":1,\"x\":2,\"xy\":\"q\"}",
                "\"r\":{\"xy\":\"q\"}", "\"ab\" :\"spaced\"", "\"d\":\"2.5\"");
        for (String insert : inserts) {
            for (int at = 0; at <= inOrder.size(); at += 2) {
                List<String> row = new ArrayList<>(inOrder);
                row.add(at, insert);
                rows.add(row);
            }
            String name = insert.substring(0, insert.indexOf(':'));
            for (int k = 0; k < inOrder.size(); k++) {
                if (inOrder.get(k).startsWith(name + ":")) {
                    List<String> replaced = new ArrayList<>(inOrder);
                    replaced.set(k, insert);
                    rows.add(replaced);
                }
            }
        }
        List<byte[]> records = new ArrayList<>();
        for (List<String> row : rows) {
            records.add(utf8("{" + String.join(",", row) + "}"));
        }
        String whole = "{" + String.join(",", inOrder) + "}";
        String swapped = "{" + String.join(",", rows.get(2)) + "}";
        records.add(utf8("[" + whole + "," + swapped + "," + whole + ",{" + String.join(",", inOrder.subList(0, 3))
                + "}," + whole + "]"));
        for (String record : List.of(whole, swapped, "{" + String.join(",", reversed) + "}")) {
            byte[] bytes = utf8(record);
            for (int cut = bytes.length - 30; cut < bytes.length; cut++) {
                records.add(java.util.Arrays.copyOf(bytes, cut));
            }
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, options, records);
        int minimum = options.containsKey("fail-on-missing-field") ? 30 : 80;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(0);
        }
    }

    /**
     * Dates and times read as words: a date whose ten bytes are the last date's is taken without parsing it again
     * (dates repeated, changed in one byte, invalid, and back), and {@code HH:mm:ss} tested and summed as one word:
     * each byte of a timestamp replaced by the bytes either side of the digits and of the colon, a letter, a space
     * and 0xFA–0xFF (whose sum carries), each followed by the timestamp as it was (the date cached), and hours,
     * minutes and seconds at and past their limits, in TIMESTAMP, DATE and TIME columns.
     */
    @ParameterizedTest
    @MethodSource("options")
    void datesAndTimesReadAsWords(Map<String, String> options) {
        RowType type = row("ROW<ts TIMESTAMP(3), d DATE, tm TIME(0), i INT>");
        String separator = "ISO-8601".equals(options.get("timestamp-format.standard")) ? "T" : " ";
        String base = "2020-02-28" + separator + "23:59:59.5";
        List<byte[]> records = new ArrayList<>();
        for (String date : List.of("2020-02-28", "2020-02-28", "2020-02-29", "2021-02-29", "2020-02-28", "2020-02-30",
                "2020-02-28", "2020-12-28", "1999-12-31", "2020-02-28", "2020-02-2", "2020-02-28")) {
            records.add(utf8("{\"ts\":\"" + date + separator + "12:00:00\",\"d\":\"" + date + "\",\"tm\":\"12:00:00\",\"i\":1}"));
            records.add(utf8("{\"i\":1,\"d\":\"" + date + "\",\"ts\":\"" + date + base.substring(10) + "\"}"));
        }
        byte[] replacements = {'/', '0', '9', ':', ';', ' ', 'a', (byte) 0xFA, (byte) 0xFB, (byte) 0xFC, (byte) 0xFD,
            (byte) 0xFE, (byte) 0xFF};
        byte[] baseBytes = utf8(base);
        for (int at = 0; at < 19; at++) {
            for (byte replacement : replacements) {
                byte[] text = baseBytes.clone();
                text[at] = replacement;
                records.add(concat(utf8("{\"ts\":\""), text, utf8("\",\"i\":1}")));
                records.add(concat(utf8("{\"i\":1,\"tm\":\""), java.util.Arrays.copyOfRange(text, 11, 19), utf8("\"}")));
                records.add(utf8("{\"ts\":\"" + base + "\",\"i\":1}"));
            }
        }
        for (String time : List.of("23:59:59", "24:00:00", "19:59:59", "20:00:00", "00:59:59", "00:60:00", "00:00:60",
                "09:09:09", "00:00:00", "29:00:00", "00:99:00", "00:00:99")) {
            records.add(utf8("{\"ts\":\"2020-02-28" + separator + time + "\",\"tm\":\"" + time + "\",\"i\":1}"));
        }
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(type, options, records);
        int minimum = options.containsKey("fail-on-missing-field") ? 0 : 19 * replacements.length;
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isGreaterThan(0);
        }
    }

    /**
     * A nested ROW's validity bits are set straight into its buffer while it has room, and through Arrow once the
     * rows outgrow it: a record that is a top-level array of 300 rows (a batch's vectors are sized by its records, so
     * the struct's bits run out mid-record), its nested rows present and null in turn; the same with some nested
     * rows failing (Flink rejects the record, or under {@code ignore-parse-errors} drops it); then one more record.
     */
    @ParameterizedTest
    @MethodSource("options")
    void nestedRowsPastTheirFirstCapacity(Map<String, String> options) {
        List<byte[]> records = new ArrayList<>();
        for (boolean failing : new boolean[] {false, true}) {
            StringBuilder array = new StringBuilder("[");
            for (int k = 0; k < 300; k++) {
                String nested = k % 7 == 3 ? "null" : failing && k % 11 == 5 ? "{\"x\":\"bad\",\"y\":\"b\"}"
                        : "{\"x\":" + k + ",\"y\":\"s" + k + "\"}";
                array.append(k == 0 ? "" : ",").append("{\"i\":").append(k).append(",\"r\":").append(nested)
                        .append('}');
            }
            records.add(utf8(array.append(']').toString()));
        }
        records.add(utf8("{\"i\":-1,\"r\":{\"x\":1,\"y\":\"last\"}}"));
        JsonDecodeCheck.Result result = JsonDecodeCheck.assertParity(row("ROW<i INT, r ROW<x INT, y STRING>>"), options,
                records);
        assertThat(result.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(301);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(result.recordsRejected()).as("records rejected").isEqualTo(1);
        }
    }

    /**
     * A row whose last field is read straight to its object's end ({@code nextEndsObject}): the last value a number, a
     * string, a nested row, an array, null or a literal, followed by the closing brace, by what must not pass for it
     * (whitespace, a comma, a bracket, a second brace, another field, nothing) and by what follows the row (the end,
     * trailing bytes, the next row of a top-level array, the rest of a parent row); records cut at every byte of
     * their end.
     */
    @ParameterizedTest
    @MethodSource("options")
    void rowsEndingStraightAfterTheirLastField(Map<String, String> options) {
        List<String> lastValues = List.of("7", "\"s\"", "\"\"", "{\"x\":1}", "{\"x\":1,\"y\":2}", "{}", "[1,2]", "[]",
                "null", "true", "-3", "0", "1.5", "123456789012345678", "\"2015-07-15 00:00:00.001\"");
        List<String> closings = List.of("}", " }", "\t}", "\n}", "}}", "},", "}]", "]", ",}", "}x", "} ", "",
                ",\"zz\":1}", ",\"b\":2}", "/**/}");
        RowType type = row("ROW<a BIGINT, b STRING, last STRING>");
        List<byte[]> records = new ArrayList<>();
        for (String last : lastValues) {
            String body = "{\"a\":1,\"b\":\"x\",\"last\":" + last;
            for (String closing : closings) {
                records.add(utf8(body + closing));
                records.add(utf8("[" + body + closing + "," + body + "}]"));
                records.add(utf8("{\"a\":2,\"b\":\"p\",\"last\":" + "\"q\"}"));
            }
            byte[] whole = utf8(body + "}");
            for (int cut = Math.max(0, whole.length - 12); cut < whole.length; cut++) {
                records.add(java.util.Arrays.copyOf(whole, cut));
            }
        }
        RowType nested = row("ROW<i INT, r ROW<x BIGINT, y STRING>, j INT>");
        for (String inner : List.of("{\"x\":1,\"y\":\"s\"}", "{\"x\":1,\"y\":\"s\"} ", "{\"x\":1,\"y\":\"s\" }",
                "{\"x\":1,\"y\":\"s\"}}", "{\"x\":1,\"y\":\"s\",\"z\":0}", "{\"x\":1,\"y\":2}", "{\"x\":1}")) {
            records.add(utf8("{\"i\":1,\"r\":" + inner + ",\"j\":2}"));
        }
        JsonDecodeCheck.Result flat = JsonDecodeCheck.assertParity(type, options, records);
        JsonDecodeCheck.Result inRows = JsonDecodeCheck.assertParity(nested, options, records.subList(
                records.size() - 7, records.size()));
        int minimum = options.containsKey("fail-on-missing-field") ? 150 : 250;
        assertThat(flat.rowsCompared()).as("rows compared").isGreaterThanOrEqualTo(minimum);
        assertThat(inRows.rowsCompared()).as("nested rows compared").isGreaterThanOrEqualTo(3);
        if (!options.containsKey("ignore-parse-errors")) {
            assertThat(flat.recordsRejected()).as("records rejected").isGreaterThan(0);
        }
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Every field in schema order; field {@code replaced}'s name spelt {@code spelling} (if not -1). */
    private static String record(int replaced, String spelling) {
        StringBuilder record = new StringBuilder("{");
        for (int k = 0; k < NAMES.size(); k++) {
            String name = k == replaced ? spelling : jsonName(NAMES.get(k));
            record.append(k > 0 ? "," : "").append('"').append(name).append("\":").append(value(k));
        }
        return record.append(",\"r\":{\"abcdefgh\":1,\"x\":\"y\"}}").toString();
    }

    private static String value(int k) {
        return k % 3 == 1 ? "\"v" + k + "\"" : Integer.toString(k);
    }

    /** The name as a record writes it: quote and backslash escaped, the rest raw. */
    private static String jsonName(String name) {
        return name.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException("not found");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static RowType row(String type) {
        return (RowType) LogicalTypeParser.parse(type, JsonDecodeFastPathTest.class.getClassLoader());
    }
}
