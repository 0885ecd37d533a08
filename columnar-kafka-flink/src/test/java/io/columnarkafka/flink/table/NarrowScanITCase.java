package io.columnarkafka.flink.table;

import static io.columnarkafka.flink.table.ScanParity.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scan decision is narrow: it is taken on what the query reads. Each query runs through Flink's {@code kafka}
 * and through {@code kafka-columnar} over the same topic and gives the same rows.
 */
class NarrowScanITCase {
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

    private static String table(String columns, String format) {
        return "CREATE TABLE ${t}src (" + columns + ") WITH ('connector' = '${connector}', 'topic' = '${t}in',"
                + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', " + format + ")";
    }

    /** Values {@code {"id": i, "name": "n<i>", "n": <n>}}, {@code n} given by {@code n} (null: no field). */
    private static List<ProducerRecord<byte[], byte[]>> jsonRecords(String topic, java.util.function.IntFunction<String> n) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String field = n.apply(i);
            records.add(new ProducerRecord<>(topic, i % 2, null, utf8("{\"id\": " + i + ", \"name\": \"n" + i + "\""
                    + (field == null ? "" : ", \"n\": " + field) + "}")));
        }
        return records;
    }

    /**
     * Flink's {@code kafka} source deserializes every value column whatever the query reads (its source takes no
     * projection). Under {@code ignore-parse-errors} a field it cannot read becomes null and the row stays; but a
     * value of the wrong shape leaves Flink's parser inside it, so an unread BIGINT given an object ahead of the
     * read fields makes the object's members the row's ({@code id} 99, {@code name} null): the columnar decoder
     * checks the unread column as Flink converts it, and gives the same rows.
     */
    @Test
    void aBadUnreadFieldUnderIgnoreParseErrorsChangesTheRowsAsInFlink() throws Exception {
        ScanParity.Run run = scans.parity("json_unread_ignored", table("id BIGINT, name STRING, n BIGINT",
                "'format' = 'json', 'json.ignore-parse-errors' = 'true'"), "SELECT id, name FROM ${t}src", 2,
                topic -> {
                    List<ProducerRecord<byte[], byte[]>> records = jsonRecords(topic,
                            i -> i % 7 == 3 ? "\"not a number\"" : i % 11 == 5 ? "[1]" : "" + i);
                    for (int i = 0; i < 4; i++) {
                        records.add(new ProducerRecord<>(topic, i % 2, null,
                                utf8("{\"n\": {\"id\": 99}, \"id\": " + (100 + i) + ", \"name\": \"m" + i + "\"}")));
                    }
                    return records;
                }, false);
        assertThat(run.rows()).as("every record gives its row, as in Flink").hasSize(64);
        assertThat(run.rows()).as("Flink's rows of the records with an object for n")
                .filteredOn(row -> row.toString().contains("99")).hasSize(4);
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(64);
    }

    /** Without {@code ignore-parse-errors}, Flink fails on a bad field the query does not read. */
    @Test
    void aBadUnreadFieldFailsAsInFlink() throws Exception {
        ScanParity.Failure failure = scans.failureParity("json_unread_bad", table("id BIGINT, name STRING, n BIGINT",
                "'format' = 'json'"), "SELECT id, name FROM ${t}src", 2,
                topic -> jsonRecords(topic, i -> i == 21 ? "\"not a number\"" : "" + i));
        assertThat(ScanParity.causes(failure.stock())).as("Flink rejects the record").contains("JSON");
        assertThat(ScanParity.causes(failure.columnar())).contains(failure.topic());
    }

    /** With {@code fail-on-missing-field}, Flink fails on a record missing a field the query does not read. */
    @Test
    void aMissingUnreadFieldFailsAsInFlink() throws Exception {
        ScanParity.Failure failure = scans.failureParity("json_unread_missing", table("id BIGINT, name STRING, n BIGINT",
                "'format' = 'json', 'json.fail-on-missing-field' = 'true'"), "SELECT id, name FROM ${t}src", 2,
                topic -> jsonRecords(topic, i -> i == 21 ? null : "" + i));
        assertThat(ScanParity.causes(failure.stock())).as("Flink rejects the record").contains("n");
        assertThat(ScanParity.causes(failure.columnar())).contains(failure.topic());
    }

    /**
     * Keys {@code k<i % 5>}, json values {@code {"id", "name", "ts"}} with event times 137 ms apart (every 50th
     * 30 s late), one to three headers per record (a repeated key, a null value on some), in partition {@code i %
     * partitions}.
     */
    private static List<ProducerRecord<byte[], byte[]>> taggedRecords(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        java.time.LocalDateTime base = java.time.LocalDateTime.of(2024, 1, 1, 0, 0);
        java.time.format.DateTimeFormatter format =
                java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
        for (int i = 0; i < count; i++) {
            long late = i % 50 == 49 ? 30_000 : 0;
            String ts = format.format(base.plusNanos((i * 137L - late) * 1_000_000L));
            String value = "{\"id\": " + i + ", \"name\": \"n" + i + " \u00fc\", \"ts\": \"" + ts + "\"}";
            List<org.apache.kafka.common.header.Header> headers = new ArrayList<>();
            headers.add(new org.apache.kafka.common.header.internals.RecordHeader("a", utf8("x" + i)));
            if (i % 3 == 1) {
                headers.add(new org.apache.kafka.common.header.internals.RecordHeader("b", null));
            }
            if (i % 4 == 2) {
                headers.add(new org.apache.kafka.common.header.internals.RecordHeader("a", utf8("again")));
            }
            records.add(new ProducerRecord<>(topic, i % partitions, null, utf8("k" + (i % 5)), utf8(value), headers));
        }
        return records;
    }

    private static final String TAGGED = "k STRING, id BIGINT, name STRING, ts TIMESTAMP(3),"
            + " h MAP<STRING, BYTES> METADATA FROM 'headers' VIRTUAL, o BIGINT METADATA FROM 'offset' VIRTUAL,"
            + " p INT METADATA FROM 'partition' VIRTUAL";
    private static final String TAGGED_FORMATS = "'key.format' = 'raw', 'key.fields' = 'k', 'value.format' = 'json',"
            + " 'value.fields-include' = 'EXCEPT_KEY'";

    /**
     * Records with 0 to 40 headers each (past HashMap's resize thresholds at 12/13 and 24/25 keys), keys repeated
     * (the later value wins, in the first key's position), null values, non-BMP keys, and on every 10th record 20
     * keys sharing one of the 16 first buckets of Flink's {@code StringData} hash (its HashMap's order, beyond what
     * {@code HashMapOrder} computes); json values {@code {"id", "name", "ts"}}, in partition {@code i % partitions}.
     */
    private static List<ProducerRecord<byte[], byte[]>> headerRecords(String topic, int count, int partitions) {
        List<String> crowded = new ArrayList<>();
        int bucket = bucket("c0");
        for (int c = 0; crowded.size() < 20; c++) {
            if (bucket("c" + c) == bucket) {
                crowded.add("c" + c);
            }
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = "{\"id\": " + i + ", \"name\": \"n" + i + "\", \"ts\": \"2024-01-01 00:00:00\"}";
            List<org.apache.kafka.common.header.Header> headers = new ArrayList<>();
            int n = i % 10 == 9 ? crowded.size() : i % 41;
            for (int j = 0; j < n; j++) {
                String key = i % 10 == 9 ? crowded.get(j) : j % 5 == 4 ? "\uD83D\uDE00" + j % 30 : "h" + j % 30;
                byte[] headerValue = (i + j) % 7 == 0 ? null : utf8("v" + i + "." + j);
                headers.add(new org.apache.kafka.common.header.internals.RecordHeader(key, headerValue));
            }
            records.add(new ProducerRecord<>(topic, i % partitions, null, utf8("k" + (i % 5)), utf8(value), headers));
        }
        return records;
    }

    /** The bucket of 16 a key takes in Flink's {@code HashMap<StringData, byte[]>}, by Flink's own hash. */
    private static int bucket(String key) {
        int h = org.apache.flink.table.data.StringData.fromString(key).hashCode();
        return (h ^ h >>> 16) & 15;
    }

    /**
     * The {@code headers} column is read by the columnar source in the entry order of the HashMap Flink's source
     * builds per record: {@code MAP_KEYS} and {@code MAP_VALUES} show that order (the collected map itself would
     * be rebuilt as a Java HashMap), the same in both runs.
     */
    @Test
    void headersAreReadByTheColumnarSourceInFlinksOrder() throws Exception {
        ScanParity.Run run = scans.parity("headers_order", table(TAGGED, TAGGED_FORMATS),
                "SELECT name, o, MAP_KEYS(h), MAP_VALUES(h), CARDINALITY(h), h['h3'] IS NULL FROM ${t}src", 3,
                topic -> headerRecords(topic, 400, 3), true);
        assertThat(run.planned().describe()).isEqualTo("admitted: json value, raw key, metadata headers offset,"
                + " bounded latest");
        assertThat(run.explain()).contains("metadata=[headers, offset]");
        assertThat(run.rows()).as("records without headers give an empty map")
                .anyMatch(row -> row.contains(", [], [], 0, true]"));
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(400);
    }

    /**
     * A query reading {@code headers} with a watermark on a column that is not first in the table: the columnar
     * source runs the planner's strategy (generated for the pushed columns) per split, emitting on each event as
     * Flink's does. Every 50th event is 30 s
     * late; Flink's window aggregate drops exactly those, and so does the columnar run. One partition, the job at
     * parallelism 1, as in the scan parity tests' on-event case.
     */
    @Test
    void aHeadersScanKeepsTheWatermarkOfThePushedColumns() throws Exception {
        String ddl = table(TAGGED + ", WATERMARK FOR ts AS ts - INTERVAL '1.5' SECOND",
                TAGGED_FORMATS + ", 'scan.watermark.emit.strategy' = 'on-event'");
        scans.parallelism(1);
        ScanParity.Run run = scans.parity("headers_windows", ddl, "SELECT window_start, COUNT(*), SUM(CARDINALITY(h))"
                + " FROM TABLE(TUMBLE(TABLE ${t}src, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                + " GROUP BY window_start, window_end", 1, topic -> taggedRecords(topic, 1500, 1), false, produced -> 5);
        assertThat(run.planned().describe()).startsWith("admitted: json value, raw key, metadata headers, watermark");
        assertThat(run.explain()).contains("project=[ts]").contains("metadata=[headers]").contains("watermark=[");
        long counted = run.rows().stream().mapToLong(row -> Long.parseLong(row.split(", ")[1])).sum();
        assertThat(counted).as("the 30 late events dropped by the watermark").isEqualTo(1500 - 30);
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(1500);
    }
}
