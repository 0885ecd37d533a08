package io.columnarkafka.flink.table;

import static io.columnarkafka.flink.table.ScanParity.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.avro.parity.FlinkAvroOracle;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The csv, avro and protobuf scan decoders through SQL, on one cluster and broker (CI time): the same bounded
 * SELECT ({@code scan.bounded.mode=latest-offset}) over the same topic bytes through Flink's {@code kafka} source
 * and through {@code kafka-columnar} gives the same rows (nulls, non-ASCII and non-BMP strings, edge numbers, timestamps before 1970 and in year 9999,
 * tombstones, and under {@code csv.ignore-parse-errors} malformed records skipped or nulled as Flink does), or
 * both jobs fail on a record the format rejects, the columnar one naming its topic, partition and offset. Each
 * test asserts the scan's decision (the columnar source admitted it) and, through its decode metrics, that the
 * columnar source decoded the rows; every job leaves no Arrow memory allocated.
 */
class ScanFormatParityITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private final ScanParity scans = new ScanParity(REPORTER, KAFKA);

    @AfterEach
    void noArrowMemoryOutstanding() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    private static String table(String columns, String formatOptions) {
        return "CREATE TABLE ${t}src (" + columns + ") WITH ('connector' = '${connector}', 'topic' = '${t}in',"
                + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', "
                + formatOptions + ")";
    }

    private static final String CSV_COLUMNS = "id BIGINT, name STRING, price DECIMAL(10, 2), f DOUBLE,"
            + " small SMALLINT, flag BOOLEAN, d DATE, t TIME(3), ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), b BYTES,"
            + " tags ARRAY<INT>, r ROW<x INT, y STRING>";

    /**
     * CSV values of {@link #CSV_COLUMNS} as Flink writes them and as others do, all of which Flink's default
     * options accept: quoting (delimiters, doubled quotes, line breaks inside quotes), non-ASCII and non-BMP
     * text, empty strings and blank arrays and rows, integer and floating edges, NaN and infinities, decimals
     * in exponent form, dates and timestamps before 1970 and in year 9999, timestamp digits finer than the
     * column's precision, a CRLF terminator with a second line, a trailing delimiter; tombstones.
     */
    private static List<ProducerRecord<byte[], byte[]>> csvRecords(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = switch (i % 8) {
                case 0 -> i + ",a" + i + ",1.50,1.5,1,true,2020-01-02,03:04:05.006,\"2020-01-02 03:04:05.12\","
                        + "\"2020-01-02 03:04:05.123Z\",AAE=,1;2,1;z";
                case 1 -> i + ",\"\u00fc\u00f1\u00ed, \uD83D\uDE00 \"\"q\"\"\",-0.01,-0.0,-32768,FALSE,1969-12-31,"
                        + "23:59:59.999,\"1969-12-31 23:59:59.999\",\"1970-01-01 00:00:00Z\",/w==,-1;0,-5;\u20ac";
                case 2 -> "9223372036854775807,\"\",99999999.99,1.7976931348623157E308,32767,true,9999-12-31,"
                        + "00:00:00,\"9999-12-31 23:59:59.999\",\"2262-04-11 23:47:16.854Z\",AA==,"
                        + "2147483647;-2147483648,2147483647;yy";
                case 3 -> "-9223372036854775808,x,0.00,NaN,0,true,1900-01-01,12:00:00.5,\"1900-01-01 00:00:00\","
                        + "\"1900-01-01 00:00:00.001Z\",AQID,,";
                case 4 -> null;
                case 5 -> i + ",\"line1\nline2\",1e2,-Infinity,+7,true,2024-02-29,01:02:03,\"2024-02-29 01:02:03\","
                        + "\"2024-02-29 01:02:03Z\",AQIDBA==,7,7;w\r\n" + (i + 1) + ",second,line";
                case 6 -> i + ",\"a string longer than twenty-four characters\",-99999999.99,4.9E-324,-1,false,"
                        + "1970-01-01,00:00:00.001,\"2020-01-02 03:04:05.123456789\",\"1969-12-31 23:59:59.999Z\","
                        + "AAAA,3;2;1,0;a b,";
                default -> i + ",\"\u4e2d\u6587\",0.01,1.0E-7,123,true,2000-01-01,10:11:12.013,"
                        + "\"2000-01-01 10:11:12.013\",\"2000-01-01 10:11:12.013Z\",AA==,,";
            };
            records.add(new ProducerRecord<>(topic, i % partitions, null, utf8(value)));
        }
        return records;
    }

    @Test
    void csvValueOfEveryTypeMatchesFlink() throws Exception {
        ScanParity.Run run = scans.parity("csv_value", table(CSV_COLUMNS, "'format' = 'csv'"),
                "SELECT * FROM ${t}src", 3, t -> csvRecords(t, 640, 3), false);
        assertThat(run.decision().describe()).isEqualTo("admitted: csv value, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
    }

    /**
     * Keys {@code <id>,t<tag>} (some null) for two key columns; values with every decoding option set:
     * delimiter {@code |}, quote {@code '}, escape {@code \}, array elements split at {@code ,}, a null literal,
     * comments, and {@code ignore-parse-errors}: malformed records (an open quote, too many values, invalid
     * UTF-8, an escape at the end) are skipped, values that do not parse and missing values are null, as in
     * Flink.
     */
    private static List<ProducerRecord<byte[], byte[]>> csvOptionRecords(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = switch (i % 12) {
                case 0 -> i + "|'n|a'|1.25|2020-01-02 03:04:05.123456|a,b|true";
                case 1 -> i + "|N/A|N/A|N/A|N/A,x|N/A";
                case 2 -> "# a comment\n\n" + i + "|after a comment|0.5|1969-12-31 23:59:59.999999|,|TRUE";
                case 3 -> i + "|'unterminated|1|2020-01-01 00:00:00|a|true";
                case 4 -> i + "|bad number|abc|not a time|a|yes";
                case 5 -> i + "|missing";
                case 6 -> i + "|x|1|2020-01-02 03:04:05|a|true|extra|more";
                case 7 -> i + "|esc\\|aped\\t|999.999|2020-01-02 03:04:05|'q,x'|false";
                case 8 -> null;
                case 9 -> i + "|\u00fc \uD83D\uDE00|-0.01|9999-12-31 23:59:59.999999|\u20ac|false";
                case 10 -> i + "|ends in an escape\\";
                default -> i + "|trailing||||";
            };
            byte[] bytes = utf8(value);
            if (i % 24 == 23) { // every other "trailing" record
                bytes = Arrays.copyOf(bytes, bytes.length + 2);
                bytes[bytes.length - 2] = (byte) 0xC3; // invalid UTF-8: a lead byte before the end
                bytes[bytes.length - 1] = (byte) 0x28;
            }
            String key = i % 11 == 3 ? null : (i % 7) + ",t" + (i % 5);
            records.add(new ProducerRecord<>(topic, i % partitions, utf8(key), bytes));
        }
        return records;
    }

    @Test
    void csvKeyAndValueWithEveryOptionAndIgnoreParseErrorsMatchFlink() throws Exception {
        String ddl = table("k_id INT, k_tag STRING, id BIGINT, name STRING, price DECIMAL(5, 2), ts TIMESTAMP(3),"
                + " tags ARRAY<STRING>, flag BOOLEAN",
                "'key.format' = 'csv', 'key.fields' = 'k_id;k_tag', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'csv', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.csv.field-delimiter' = '|', 'value.csv.quote-character' = '''',"
                        + " 'value.csv.escape-character' = '\\', 'value.csv.array-element-delimiter' = ',',"
                        + " 'value.csv.null-literal' = 'N/A', 'value.csv.allow-comments' = 'true',"
                        + " 'value.csv.ignore-parse-errors' = 'true'");
        ScanParity.Run run = scans.parity("csv_options", ddl, "SELECT k_tag, name, tags, price, ts, k_id, flag, id"
                + " FROM ${t}src", 2, t -> csvOptionRecords(t, 600, 2), true, produced -> produced / 2);
        assertThat(run.decision().describe()).isEqualTo("admitted: csv value, csv key, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
    }

    /**
     * Timestamps with zero to nine fraction digits in TIMESTAMP(0), TIMESTAMP_LTZ(0) and TIMESTAMP(3) columns,
     * before 1970, in year 0001 and 9999: Flink's rows keep the milliseconds of a precision-0 value (its binary
     * row keeps epoch milliseconds up to precision 3), so the columnar scan must too, in json (both timestamp
     * standards) and csv.
     */
    @Test
    void timestampDigitsFinerThanThePrecisionMatchFlink() throws Exception {
        String columns = "id INT, ts0 TIMESTAMP(0), ltz0 TIMESTAMP_LTZ(0), ts3 TIMESTAMP(3)";
        for (String[] shape : new String[][] {
                {"json", "'format' = 'json'", " "}, {"json", "'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601'", "T"},
                {"csv", "'format' = 'csv'", " "}}) {
            String format = shape[0];
            String separator = shape[2];
            ScanParity.Run run = scans.parity("ts_digits_" + format, table(columns, shape[1]), "SELECT * FROM ${t}src", 2,
                    topic -> timestampDigitRecords(topic, format, separator, 200, 2), false);
            assertThat(run.decision().describe()).isEqualTo("admitted: " + format + " value, bounded latest");
            assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(200);
            assertThat(run.rows()).as("rows holding milliseconds in TIMESTAMP(0)")
                    .filteredOn(row -> row.matches("\\+I\\[\\d+, [-+]?\\d+-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+,.*"))
                    .hasSizeGreaterThan(50);
        }
    }

    private static List<ProducerRecord<byte[], byte[]>> timestampDigitRecords(String topic, String format,
            String separator, int count, int partitions) {
        String[] instants = {"1969-12-31T23:59:59.987654321", "2020-01-02T03:04:05.123456789",
            "9999-12-31T23:59:59.999999999", "0001-01-01T00:00:00.000000001", "1900-06-15T12:30:45.500000001",
            "1970-01-01T00:00:00.000999999", "2262-04-11T23:47:16.854775808", "1677-09-21T00:12:43.145224191"};
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String instant = instants[i % instants.length];
            int digits = (i / instants.length) % 10;
            String text = instant.substring(0, 10) + separator + instant.substring(11, 19)
                    + (digits == 0 ? "" : instant.substring(19, 20 + digits));
            String value = format.equals("json")
                    ? "{\"id\":" + i + ",\"ts0\":\"" + text + "\",\"ltz0\":\"" + text + "Z\",\"ts3\":\"" + text + "\"}"
                    : i + ",\"" + text + "\",\"" + text + "Z\",\"" + text + "\"";
            records.add(new ProducerRecord<>(topic, i % partitions, null, utf8(value)));
        }
        return records;
    }

    @Test
    void aCsvRecordFlinkRejectsFailsBothJobsAndTheColumnarErrorNamesIt() throws Exception {
        ScanParity.Failure failure = scans.failureParity("csv_bad", table("id BIGINT, name STRING", "'format' = 'csv'"),
                "SELECT * FROM ${t}src", 2, topic -> {
                    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                        String value = i == 21 ? "not-a-number,x" : i + ",n" + i;
                        records.add(new ProducerRecord<>(topic, i % 2, null, utf8(value)));
                    }
                    return records;
                });
        assertThat(failure.decision().describe()).isEqualTo("admitted: csv value, bounded latest");
        assertThat(ScanParity.causes(failure.stock())).as("Flink rejects the record").contains("CSV");
        assertThat(ScanParity.causes(failure.columnar()))
                .contains("partition 1, offset 10, field 'id'")
                .contains(failure.topic());
    }

    private static final String AVRO_TYPE = "ROW<id BIGINT NOT NULL, name STRING, price DECIMAL(38, 10), f FLOAT,"
            + " d DOUBLE, tiny TINYINT, small SMALLINT, i INT, flag BOOLEAN, dt DATE, t TIME(3), ts TIMESTAMP(3),"
            + " b BYTES, tags ARRAY<STRING>, r ROW<x INT, y ARRAY<BIGINT>>>";

    /** The fields of a {@code ROW<...>} type string as DDL columns. */
    private static String columns(String rowType) {
        return rowType.substring("ROW<".length(), rowType.length() - 1);
    }

    /**
     * Rows of {@link #AVRO_TYPE} written by Flink's own {@code AvroRowDataSerializationSchema} (the value format
     * gets the physical row as NOT NULL): nulls in every nullable field and element, non-ASCII and non-BMP
     * strings, integer and floating edges with NaN and -0.0, full-precision decimals, dates and timestamps
     * before 1970 and in year 9999; tombstones.
     */
    private static List<ProducerRecord<byte[], byte[]>> avroRecords(String topic, int count, int partitions) {
        ParityCheck.Oracle flink = FlinkAvroOracle.open((RowType) RowTypes.parse(AVRO_TYPE).copy(false), Map.of());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GenericRowData row = switch (i % 5) {
                case 0 -> GenericRowData.of((long) i, StringData.fromString("a" + i + " \u00fc\u20ac\uD83D\uDE00"),
                        decimal("1234567890123456789012345678.0123456789"), 1.5f, -2.25, (byte) 1, (short) 2, 3,
                        true, 18263, 3_723_004, timestamp("2020-01-02T03:04:05.123"), new byte[] {0, 1, -1},
                        strings("x", null, ""), GenericRowData.of(7, new GenericArrayData(new Long[] {1L, null})));
                case 1 -> GenericRowData.of((long) i, null, null, null, null, null, null, null, null, null, null, null,
                        null, null, null);
                case 2 -> GenericRowData.of(Long.MAX_VALUE, StringData.fromString(""),
                        decimal("9999999999999999999999999999.9999999999"), Float.NaN, Double.POSITIVE_INFINITY,
                        Byte.MIN_VALUE, Short.MAX_VALUE, Integer.MIN_VALUE, false, 2_932_896, 86_399_999,
                        timestamp("9999-12-31T23:59:59.999"), new byte[0], strings(),
                        GenericRowData.of(null, null));
                case 3 -> GenericRowData.of(Long.MIN_VALUE, StringData.fromString("\u4e2d\u6587 \"q\" \\ \n"),
                        decimal("-0.0000000001"), -0.0f, Double.MIN_VALUE, Byte.MAX_VALUE, Short.MIN_VALUE,
                        Integer.MAX_VALUE, true, -1, 0, timestamp("1969-12-31T23:59:59.999"), new byte[] {127},
                        strings((String) null), GenericRowData.of(Integer.MIN_VALUE,
                                new GenericArrayData(new Long[] {Long.MIN_VALUE, Long.MAX_VALUE})));
                default -> null;
            };
            byte[] value = row == null ? null : flink.serialize(row);
            records.add(new ProducerRecord<>(topic, i % partitions, null, value));
        }
        return records;
    }

    @Test
    void avroValueOfEveryTypeMatchesFlink() throws Exception {
        ScanParity.Run run = scans.parity("avro_value", table(columns(AVRO_TYPE), "'format' = 'avro'"),
                "SELECT * FROM ${t}src", 3, t -> avroRecords(t, 500, 3), false);
        assertThat(run.decision().describe()).isEqualTo("admitted: avro value, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
    }

    private static final String AVRO_MAP_TYPE = "ROW<id BIGINT NOT NULL, m MAP<STRING, INT>, s MULTISET<STRING>,"
            + " n ARRAY<MAP<STRING, STRING>>>";

    /**
     * Rows of {@link #AVRO_MAP_TYPE} written by Flink's serializer: maps of 0–40 entries (past HashMap's resize
     * thresholds), keys colliding in Java's string hash ({@code Aa}/{@code BB}), non-BMP keys, null values, null
     * maps.
     */
    private static List<ProducerRecord<byte[], byte[]>> avroMapRecords(String topic, int count, int partitions) {
        ParityCheck.Oracle flink = FlinkAvroOracle.open((RowType) RowTypes.parse(AVRO_MAP_TYPE).copy(false), Map.of());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<Object, Object> m = new java.util.LinkedHashMap<>();
            Map<Object, Object> multiset = new java.util.LinkedHashMap<>();
            Map<Object, Object> strings = new java.util.LinkedHashMap<>();
            for (int j = 0; j < i % 41; j++) {
                String key = switch (j % 3) {
                    case 0 -> "k" + j;
                    case 1 -> (j & 2) == 0 ? "Aa" + j : "BB" + j;
                    default -> "\uD83D\uDE00" + j;
                };
                m.put(StringData.fromString(key), (i + j) % 6 == 0 ? null : i * j);
                multiset.put(StringData.fromString(key), 1 + j % 3);
                strings.put(StringData.fromString(key), j % 4 == 1 ? null : StringData.fromString("v" + j));
            }
            Map<Object, Object> nested = Map.of(StringData.fromString("a"), StringData.fromString("b" + i));
            GenericRowData row = GenericRowData.of((long) i, i % 13 == 5 ? null : new GenericMapData(m),
                    i % 11 == 4 ? null : new GenericMapData(multiset),
                    new GenericArrayData(new Object[] {new GenericMapData(nested), null, new GenericMapData(strings)}));
            records.add(new ProducerRecord<>(topic, i % partitions, null, flink.serialize(row)));
        }
        return records;
    }

    /** {@code MAP_KEYS}/{@code MAP_VALUES} show each map's entry order (the collected maps are Java HashMaps). */
    @Test
    void avroMapsMatchFlinkInEntryOrder() throws Exception {
        ScanParity.Run run = scans.parity("avro_maps", table(columns(AVRO_MAP_TYPE), "'format' = 'avro'"),
                "SELECT id, MAP_KEYS(m), MAP_VALUES(m), s, MAP_KEYS(n[3]), MAP_VALUES(n[3]), n[1] FROM ${t}src", 2,
                t -> avroMapRecords(t, 200, 2), false);
        assertThat(run.decision().describe()).isEqualTo("admitted: avro value, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(200);
    }

    private static final String AVRO_KEY_TYPE = "ROW<id INT, name STRING>";
    private static final String AVRO_VALUE_TYPE = "ROW<v STRING, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), n BIGINT>";

    /** Avro keys and values in Flink's non-legacy timestamp mapping, written by Flink's serializer; some null keys. */
    private static List<ProducerRecord<byte[], byte[]>> avroKeyedRecords(String topic, int count, int partitions) {
        Map<String, String> modern = Map.of("timestamp_mapping.legacy", "false");
        ParityCheck.Oracle keys = FlinkAvroOracle.open((RowType) RowTypes.parse(AVRO_KEY_TYPE).copy(false), Map.of());
        ParityCheck.Oracle values = FlinkAvroOracle.open((RowType) RowTypes.parse(AVRO_VALUE_TYPE).copy(false), modern);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            GenericRowData key = i % 11 == 3 ? null : GenericRowData.of(i % 3 == 0 ? null : i % 7,
                    i % 4 == 0 ? null : StringData.fromString("k\u00e9" + i % 5));
            GenericRowData value = i % 9 == 4 ? null : GenericRowData.of(
                    i % 6 == 1 ? null : StringData.fromString("v" + i + (i % 2 == 0 ? " \uD83D\uDE00" : "")),
                    i % 5 == 2 ? null : timestamp(i % 2 == 0 ? "1960-06-15T12:34:56.789" : "2024-02-29T23:59:59.001"),
                    i % 7 == 2 ? null : TimestampData.fromEpochMillis(i * 86_400_000L * 365 - 1_000_000_000_000L),
                    (long) i * 1_000_003);
            records.add(new ProducerRecord<>(topic, i % partitions, key == null ? null : keys.serialize(key),
                    value == null ? null : values.serialize(value)));
        }
        return records;
    }

    @Test
    void avroKeyAndValueWithTheModernTimestampMappingAndAProjectionMatchFlink() throws Exception {
        String ddl = table("k_id INT, k_name STRING, " + columns(AVRO_VALUE_TYPE),
                "'key.format' = 'avro', 'key.fields' = 'k_id;k_name', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'avro', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.avro.timestamp_mapping.legacy' = 'false'");
        ScanParity.Run run = scans.parity("avro_key", ddl, "SELECT ltz, k_name, v, ts FROM ${t}src", 2,
                t -> avroKeyedRecords(t, 600, 2), true);
        assertThat(run.decision().describe()).isEqualTo("admitted: avro value, avro key, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
        assertThat(run.explain()).as("projection pushed into the columnar scan").contains("project=[ltz, k_name, v, ts]");
    }

    @Test
    void anAvroRecordCutShortFailsBothJobsAndTheColumnarErrorNamesIt() throws Exception {
        ScanParity.Failure failure = scans.failureParity("avro_bad", table(columns(AVRO_VALUE_TYPE),
                "'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false'"), "SELECT * FROM ${t}src", 2, topic -> {
                    ParityCheck.Oracle flink = FlinkAvroOracle.open((RowType) RowTypes.parse(AVRO_VALUE_TYPE).copy(false),
                            Map.of("timestamp_mapping.legacy", "false"));
                    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
                    for (int i = 0; i < 30; i++) {
                        byte[] value = flink.serialize(GenericRowData.of(StringData.fromString("value " + i),
                                timestamp("2020-01-02T03:04:05"), TimestampData.fromEpochMillis(i), (long) i));
                        records.add(new ProducerRecord<>(topic, i % 2, null,
                                i == 14 ? Arrays.copyOf(value, value.length - 3) : value));
                    }
                    return records;
                });
        assertThat(failure.decision().describe()).isEqualTo("admitted: avro value, bounded latest");
        assertThat(ScanParity.causes(failure.stock())).as("Flink rejects the record").contains("Avro");
        assertThat(ScanParity.causes(failure.columnar())).contains("partition 0, offset 7").contains(failure.topic());
    }

    private static DecimalData decimal(String value) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), 38, 10);
    }

    private static TimestampData timestamp(String localDateTime) {
        return TimestampData.fromLocalDateTime(LocalDateTime.parse(localDateTime));
    }

    private static GenericArrayData strings(String... values) {
        StringData[] data = new StringData[values.length];
        for (int i = 0; i < values.length; i++) {
            data[i] = values[i] == null ? null : StringData.fromString(values[i]);
        }
        return new GenericArrayData(data);
    }

    /**
     * Protobuf key and value (the format module's test messages) with {@code ignore-parse-errors} on the value:
     * negative and edge numbers, non-BMP strings, nested messages unset or merged from two occurrences, unknown
     * fields, undeclared enum numbers (a name; as a number the record is skipped), cut records and tombstones
     * (skipped by both).
     */
    private static List<ProducerRecord<byte[], byte[]>> protobufRecords(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = Inner3.newBuilder().setX(i % 7 - 3).setS("k\u00e9" + i % 5).build().toByteArray();
            Scalars3 value = Scalars3.newBuilder().setD(i * -1.5).setI32(-i).setU64(-1L - i).setS64(Long.MIN_VALUE + i)
                    .setFx32(i).setB(i % 2 == 0).setS("v" + i + (i % 3 == 0 ? " \uD83D\uDE00" : ""))
                    .setEValue(i % 4 == 3 ? 9 : i % 3).setOeValue(i % 5)
                    .setBy(ByteString.copyFrom(new byte[] {(byte) i})).setFar(i * 1_000_003L).build();
            if (i % 4 == 1) {
                value = value.toBuilder().setM(Inner3.newBuilder().setX(i).addL(i).addL(-i)).build();
            }
            byte[] bytes = value.toByteArray();
            bytes = switch (i % 10) {
                case 2 -> concat(bytes, Scalars3.newBuilder().setM(Inner3.newBuilder().setS("merged").addL(7))
                        .setS("second").build().toByteArray());
                case 5 -> concat(new byte[] {(byte) 0xF8, 0x06, 0x2A, 0x7D, 1, 2, 3, 4}, bytes); // unknown fields
                case 7 -> Arrays.copyOf(bytes, bytes.length / 2);
                case 9 -> null;
                default -> bytes;
            };
            records.add(new ProducerRecord<>(topic, i % partitions, key, bytes));
        }
        return records;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }

    @Test
    void protobufKeyAndValueWithIgnoreParseErrorsMatchFlink() throws Exception {
        String ddl = "CREATE TABLE ${t}src (k_x INT, k_s STRING, d DOUBLE, i32 INT, u64 BIGINT, s64 BIGINT,"
                + " fx32 INT, b BOOLEAN, s STRING, `by` BYTES, e STRING, oe INT, m ROW<x INT, s STRING, l ARRAY<BIGINT>>,"
                + " far BIGINT) WITH ('connector' = '${connector}', 'topic' = '${t}in',"
                + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'key.format' = 'protobuf', 'key.protobuf.message-class-name' = '" + Inner3.class.getName() + "',"
                + " 'key.fields' = 'k_x;k_s', 'key.fields-prefix' = 'k_', 'value.format' = 'protobuf',"
                + " 'value.protobuf.message-class-name' = '" + Scalars3.class.getName() + "',"
                + " 'value.protobuf.ignore-parse-errors' = 'true', 'value.fields-include' = 'EXCEPT_KEY')";
        ScanParity.Run run = scans.parity("protobuf", ddl, "SELECT k_s, m, s, e, oe, d, far, k_x, i32, u64, s64,"
                + " fx32, b, `by` FROM ${t}src", 2, t -> protobufRecords(t, 400, 2), false, produced -> produced / 2);
        assertThat(run.decision().describe()).isEqualTo("admitted: protobuf value, protobuf key, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
        assertThat(run.rows()).as("rows with a merged nested message").anyMatch(row -> row.contains("merged"));
    }
}
