package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same bounded SELECT over the same topic through Flink's {@code kafka} source and through {@code
 * kafka-columnar} returns the same rows. Each test asserts the scan was admitted (the table source's
 * decision) and ran on the columnar source (its decode metrics count every row the topic gave), or, for a
 * fallback, that it was not and ran on Flink's source (no decode metrics). Every job leaves no Arrow memory
 * allocated.
 */
class KafkaColumnarScanParityITCase {
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

    /** Keys {@code k<i % 7>} (some null), values with tombstones, empty, non-ASCII and non-BMP strings. */
    private static List<ProducerRecord<byte[], byte[]>> rawRecords(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = i % 11 == 3 ? null : "k" + (i % 7);
            String value = i % 17 == 4 ? null : i % 13 == 2 ? "" : "v" + i + (i % 5 == 0 ? " \u00fc\u20ac\uD83D\uDE00" : "");
            records.add(new ProducerRecord<>(topic, i % partitions, ScanParity.utf8(key), ScanParity.utf8(value)));
        }
        return records;
    }

    @Test
    void rawValueBoundedLatestOffset() throws Exception {
        String ddl = "CREATE TABLE ${t}src (v STRING) WITH ('connector' = '${connector}', 'topic' = '${t}in',"
                + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'format' = 'raw'${columnar-scan})";
        ScanParity.Run run = scans.parity("raw_value", ddl, "SELECT * FROM ${t}src", 3,
                t -> rawRecords(t, 1500, 3), false);
        assertThat(run.decision().describe())
                .isEqualTo("admitted: raw value, bounded latest, batches of at most 64 rows, 8 mb");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(1500);
        // 500 records per partition in batches of at most 64 rows (and never two fetches'): at least 8 per partition.
        assertThat(run.decodedBatches()).as("batches of the columnar source").isGreaterThanOrEqualTo(3 * 8);
    }

    @Test
    void rawKeyAndValueWithAProjectionAndObjectReuse() throws Exception {
        String ddl = "CREATE TABLE ${t}src (k STRING, v STRING) WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}in', 'properties.bootstrap.servers' = '${servers}',"
                + " 'properties.group.id' = '${t}g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'raw', 'key.fields' = 'k',"
                + " 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY')";
        ScanParity.Run run = scans.parity("raw_key", ddl, "SELECT v, CHAR_LENGTH(v) FROM ${t}src", 2,
                t -> rawRecords(t, 1200, 2), true);
        assertThat(run.decision().describe()).isEqualTo("admitted: raw value, raw key, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(1200);
        assertThat(run.explain()).as("projection pushed into the columnar scan")
                .contains("project=[v]");
    }

    /**
     * Every record metadata column the columnar scan reads, with Flink's types, beside a raw key and value
     * ({@code EXCEPT_KEY}, so each row's metadata goes through the key/value assembly), a watermark on the
     * record timestamp, object reuse on: the same rows as Flink's source.
     */
    @Test
    void recordMetadataColumnsMatchFlink() throws Exception {
        String ddl = "CREATE TABLE ${t}src (k STRING, v STRING, t STRING METADATA FROM 'topic' VIRTUAL,"
                + " p INT METADATA FROM 'partition' VIRTUAL, o BIGINT METADATA FROM 'offset' VIRTUAL,"
                + " ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', tt STRING METADATA FROM 'timestamp-type' VIRTUAL,"
                + " e INT METADATA FROM 'leader-epoch' VIRTUAL, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)"
                + " WITH ('connector' = '${connector}', 'topic' = '${t}in', 'properties.bootstrap.servers' = '${servers}',"
                + " 'properties.group.id' = '${t}g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'raw', 'key.fields' = 'k',"
                + " 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY')";
        ScanParity.Run run = scans.parity("metadata", ddl, "SELECT o, p, t, v, ts, tt, e, k FROM ${t}src", 3,
                t -> rawRecords(t, 900, 3), true);
        assertThat(run.decision().describe()).isEqualTo("admitted: raw value, raw key,"
                + " metadata topic partition offset timestamp timestamp-type leader-epoch, watermark, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(900);
        assertThat(run.rows()).as("offsets are distinct per partition").doesNotHaveDuplicates();
        assertThat(run.rows().get(0)).contains("CreateTime");
    }

    /**
     * JSON events {@code {"id": i, "ms": <epoch millis>, "ts": "<the same instant as TIMESTAMP(3)>"}}, in time
     * order with up to 1.2 s of disorder (below the tests' watermark bounds, so no row is late and the window
     * results do not depend on when watermarks are emitted), spread over 5 minutes; with {@code lateEvery} &gt; 0,
     * every {@code lateEvery}-th event is 30 s late.
     */
    private static List<ProducerRecord<byte[], byte[]>> eventRecords(String topic, int count, int partitions,
            int lateEvery) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        java.time.LocalDateTime base = java.time.LocalDateTime.of(2024, 1, 1, 0, 0);
        java.time.format.DateTimeFormatter format = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
        for (int i = 0; i < count; i++) {
            long late = lateEvery > 0 && i % lateEvery == lateEvery - 1 ? 30_000 : 0;
            java.time.LocalDateTime time = base.plusNanos((i * 137L + (i % 5) * 300L - late) * 1_000_000L);
            long ms = time.toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
            String value = "{\"id\": " + i + ", \"ms\": " + ms + ", \"ts\": \"" + format.format(time) + "\"}";
            records.add(new ProducerRecord<>(topic, i % partitions, null, ScanParity.utf8(value)));
        }
        return records;
    }

    private static final String EVENT_TABLE_OPTIONS = " WITH ('connector' = '${connector}', 'topic' = '${t}in',"
            + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
            + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json'";

    /**
     * An event-time tumbling window over a TIMESTAMP(3) column with a 2 s bounded-out-of-orderness watermark
     * and an idle timeout: Flink's generated watermark strategy is pushed into the columnar scan (the scan's
     * digest carries it) and the windows' counts and sums equal Flink's source's.
     */
    @Test
    void anEventTimeTumblingWindowOverAWatermarkedColumnMatchesFlink() throws Exception {
        String ddl = "CREATE TABLE ${t}src (id BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)"
                + EVENT_TABLE_OPTIONS + ", 'scan.watermark.idle-timeout' = '5 s')";
        ScanParity.Run run = scans.parity("tumble", ddl, "SELECT window_start, window_end, COUNT(*), SUM(id) FROM TABLE(TUMBLE("
                + "TABLE ${t}src, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end", 3,
                t -> eventRecords(t, 2000, 3, 0), false, produced -> 25);
        assertThat(run.decision().describe()).isEqualTo("admitted: json value, watermark, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(2000);
        assertThat(run.explain()).as("the watermark pushed into the columnar scan")
                .contains("watermark=[-(ts, 2000:INTERVAL SECOND)]");
    }

    /**
     * The watermark on a computed TIMESTAMP_LTZ(3) column (as the Nexmark table declares its event time), with
     * a sub-second bound and per-row emission ({@code on-event}), object reuse on, one partition, the job at
     * parallelism 1 (one channel between each pair of operators, so each watermark reaches the window aggregate
     * right after the row that raised it; with a second, split-less source subtask the window's watermark waits
     * for that subtask to finish, and which late rows Flink drops depends on timing): every 50th event is 30 s
     * late. Flink's watermark has passed their windows when they arrive, so its window aggregate drops all of
     * them; the columnar scan must drop the same (without watermarks in the stream it would count them).
     */
    @Test
    void aWatermarkOnAComputedTimestampLtzColumnDropsTheSameLateRowsAsFlink() throws Exception {
        String ddl = "CREATE TABLE ${t}src (id BIGINT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3),"
                + " WATERMARK FOR ts AS ts - INTERVAL '1.5' SECOND)"
                + EVENT_TABLE_OPTIONS + ", 'scan.watermark.emit.strategy' = 'on-event')";
        scans.parallelism(1);
        ScanParity.Run run = scans.parity("tumble_ltz", ddl, "SELECT window_start, COUNT(*), MAX(id) FROM TABLE(TUMBLE("
                + "TABLE ${t}src, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end", 1,
                t -> eventRecords(t, 1500, 1, 50), true, produced -> 40);
        assertThat(run.decision().describe()).isEqualTo("admitted: json value, watermark, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(1500);
        assertThat(run.explain()).as("the watermark pushed into the columnar scan").contains("watermark=[");
        long counted = 0;
        for (String row : run.rows()) {
            counted += Long.parseLong(row.split(", ")[1]);
        }
        assertThat(counted).as("rows counted in windows: the late ones were dropped").isEqualTo(1500 - 1500 / 50);
    }

    private static final String JSON_COLUMNS = "id BIGINT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
            + " tags ARRAY<INT>, flag BOOLEAN, r ROW<x INT, y STRING>, m MAP<STRING, BIGINT>";

    /**
     * JSON values as Flink writes them and as others do: every type, nested rows, arrays and maps, missing,
     * null and unknown fields, non-ASCII and non-BMP strings, numbers and booleans as strings (Flink's
     * coercions), tombstones; keys {@code {"id": i}}, some null.
     */
    private static List<ProducerRecord<byte[], byte[]>> jsonRecords(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = switch (i % 7) {
                case 0 -> "{\"id\":" + i + ",\"name\":\"a" + i + "\",\"price\":1.5,\"ts\":\"2020-01-02 03:04:05.12\","
                        + "\"tags\":[1,2],\"flag\":true,\"r\":{\"x\":1,\"y\":\"z\"},\"m\":{\"a\":1,\"b\":null},\"extra\":[1]}";
                case 1 -> "{\"id\":" + i + "}";
                case 2 -> "{\"id\":" + i + ",\"name\":null,\"price\":null,\"ts\":null,\"tags\":null,\"flag\":null,"
                        + "\"r\":null,\"m\":null}";
                case 3 -> "{\"name\":\"\u00fc\u00f1\u00ed \uD83D\uDE00 \\u00e9\\n\",\"id\":" + i + ",\"price\":-0.01,"
                        + "\"ts\":\"1970-01-01 00:00:00.001\",\"tags\":[null],\"flag\":false,\"r\":{\"y\":null}}";
                case 4 -> "{\"id\":\"" + i + "\",\"price\":\"12.30\",\"flag\":\"true\",\"tags\":[\"7\"]}";
                case 5 -> null;
                default -> "{\"id\":" + i + ",\"ts\":\"1969-12-31 23:59:59.999\",\"price\":99999999.99,"
                        + "\"m\":{},\"tags\":[]}";
            };
            String key = i % 11 == 3 ? null : "{\"id\":" + i + "}";
            records.add(new ProducerRecord<>(topic, i % partitions, ScanParity.utf8(key), ScanParity.utf8(value)));
        }
        return records;
    }

    @Test
    void jsonValueBoundedLatestOffset() throws Exception {
        String ddl = "CREATE TABLE ${t}src (" + JSON_COLUMNS + ") WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}in', 'properties.bootstrap.servers' = '${servers}',"
                + " 'properties.group.id' = '${t}g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";
        ScanParity.Run run = scans.parity("json_value", ddl, "SELECT * FROM ${t}src", 3, t -> jsonRecords(t, 700, 3), false);
        assertThat(run.decision().describe()).isEqualTo("admitted: json value, bounded latest");
        // The exact total (600) was read in two runs and 444 in a third: the reporter lookup can miss a
        // subtask's counter; the rows themselves are compared above. Positive proves the columnar source ran.
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
    }

    @Test
    void jsonKeyAndValueWithPrefixAndAProjection() throws Exception {
        String ddl = "CREATE TABLE ${t}src (k_id BIGINT, " + JSON_COLUMNS + ") WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}in', 'properties.bootstrap.servers' = '${servers}',"
                + " 'properties.group.id' = '${t}g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'key.fields' = 'k_id',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY')";
        ScanParity.Run run = scans.parity("json_key", ddl, "SELECT m, k_id, name, r.y FROM ${t}src", 2,
                t -> jsonRecords(t, 700, 2), true);
        assertThat(run.decision().describe()).isEqualTo("admitted: json value, json key, bounded latest");
        // Positive, not a total: the reporter lookup can miss a subtask's counter (see jsonValueBoundedLatestOffset).
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
        assertThat(run.explain()).as("projection pushed into the columnar scan").contains("project=[m, k_id, name, r]");
    }

    private static String keyedJsonTable(String valueOptions) {
        return "CREATE TABLE ${t}src (k_id BIGINT, id BIGINT, name STRING) WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}in', 'properties.bootstrap.servers' = '${servers}',"
                + " 'properties.group.id' = '${t}g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'key.fields' = 'k_id',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'"
                + valueOptions + ")";
    }

    /**
     * Twelve records in one partition (so which record fails first is not a race between readers): keys {@code
     * {"id": i}}, values {@code {"id": i, "name": "n<i>"}}, but where {@code badKeys} or {@code badValues} give one
     * (each bad text names its record), or {@code tombstones} a null value.
     */
    private static List<ProducerRecord<byte[], byte[]>> keyedJson(String topic, Map<Integer, String> badKeys,
            Map<Integer, String> badValues, Set<Integer> tombstones) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String key = badKeys.getOrDefault(i, "{\"id\":" + i + "}");
            String value = tombstones.contains(i) ? null
                    : badValues.getOrDefault(i, "{\"id\":" + i + ",\"name\":\"n" + i + "\"}");
            records.add(new ProducerRecord<>(topic, 0, ScanParity.utf8(key), ScanParity.utf8(value)));
        }
        return records;
    }

    /**
     * Flink's source decodes a record's key before its value ({@code DynamicKafkaDeserializationSchema.deserialize}),
     * so a key its format rejects fails the job though the record's value, a tombstone, gives no row; and before a
     * later record's rejected value does. Offset 3: a tombstone with a cut-short key; offset 6: a cut-short value.
     */
    @Test
    void aRejectedKeyFailsBothJobsThoughItsValueIsATombstoneAndBeforeALaterRejectedValue() throws Exception {
        ScanParity.Failure failure = scans.failureParity("key_tomb", keyedJsonTable(""), "SELECT * FROM ${t}src", 1,
                t -> keyedJson(t, Map.of(3, "{\"id\":3"), Map.of(6, "[\"v6\""), Set.of(3)));
        assertThat(failure.decision().describe()).isEqualTo("admitted: json value, json key, bounded latest");
        assertThat(ScanParity.causes(failure.stock())).as("Flink fails on the key at offset 3")
                .contains("{\"id\":3'").doesNotContain("v6");
        assertThat(ScanParity.causes(failure.columnar()))
                .contains("cannot decode the key of the Kafka record at topic '" + failure.topic() + "', partition 0,"
                        + " offset 3");
    }

    /**
     * Under the value format's {@code ignore-parse-errors} a rejected value gives no row, but the record's rejected
     * key still fails the job in Flink (the key format has no such option set). Offset 2: a skipped value, its key
     * good; offset 4: a skipped value and a rejected key.
     */
    @Test
    void aRejectedKeyFailsBothJobsThoughItsValueIsSkipped() throws Exception {
        ScanParity.Failure failure = scans.failureParity("key_skip", keyedJsonTable(
                        ", 'value.json.ignore-parse-errors' = 'true'"), "SELECT * FROM ${t}src", 1,
                t -> keyedJson(t, Map.of(4, "{\"id\":\"k4\"}"), Map.of(2, "{\"id\":", 4, "{\"id\":"), Set.of()));
        assertThat(failure.decision().describe())
                .isEqualTo("admitted: json value, json key, bounded latest");
        assertThat(ScanParity.causes(failure.stock())).as("Flink fails on the key at offset 4").contains("k4");
        assertThat(ScanParity.causes(failure.columnar()))
                .contains("cannot decode the key of the Kafka record at topic '" + failure.topic() + "', partition 0,"
                        + " offset 4, field 'id'");
    }

    /** A record whose key and value its formats both reject fails on its key, as in Flink, which decodes it first. */
    @Test
    void aRecordWithARejectedKeyAndValueFailsOnItsKey() throws Exception {
        ScanParity.Failure failure = scans.failureParity("key_first", keyedJsonTable(""), "SELECT * FROM ${t}src", 1,
                t -> keyedJson(t, Map.of(5, "{\"id\":\"k5\"}"), Map.of(5, "{\"id\":\"v5\"}"), Set.of()));
        assertThat(failure.decision().describe()).isEqualTo("admitted: json value, json key, bounded latest");
        assertThat(ScanParity.causes(failure.stock())).as("Flink fails on the key").contains("k5")
                .doesNotContain("v5");
        assertThat(ScanParity.causes(failure.columnar()))
                .contains("cannot decode the key of the Kafka record at topic '" + failure.topic() + "', partition 0,"
                        + " offset 5, field 'id'");
    }
}
