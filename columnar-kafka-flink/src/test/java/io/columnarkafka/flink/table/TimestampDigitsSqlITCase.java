package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What stock Flink writes, Kafka in and Kafka out, for timestamp text with more fraction digits than the
 * declared precision, and the same job through {@code kafka-columnar}: {@code INSERT INTO out SELECT * FROM
 * in} and a projection with a filter (a Calc), json (SQL and ISO-8601) and csv. Stock Flink is the oracle:
 * the test records its output and requires ours to be equal, record for record.
 */
class TimestampDigitsSqlITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private final SqlRuns runs = new SqlRuns(KAFKA);
    private final ScanParity scans = new ScanParity(REPORTER, KAFKA);

    @AfterEach
    void noArrowMemoryOutstanding() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    /** Fraction digits 0–9, pre-1970, year 0001 and 9999, null and missing. */
    private static final String[] TIMES = {
        "2020-01-02 03:04:05.123456789", "1969-12-31 23:59:59.987654321", "0001-01-01 00:00:00.000000001",
        "9999-12-31 23:59:59.999999999", "2020-01-02 03:04:05", "2020-01-02 03:04:05.1",
        "2020-01-02 03:04:05.1234", "1970-01-01 00:00:00.0000005", null};

    private static String jsonTime(String time, boolean iso, boolean ltz) {
        if (time == null) {
            return "null";
        }
        String text = iso ? time.replace(' ', 'T') : time;
        return "\"" + text + (ltz ? "Z" : "") + "\"";
    }

    private static List<ProducerRecord<byte[], byte[]>> jsonRecords(String topic, boolean iso) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < TIMES.length; i++) {
            String t = jsonTime(TIMES[i], iso, false);
            String value = "{\"id\":" + i + ",\"t0\":" + t + ",\"t3\":" + t + ",\"t6\":" + t + ",\"t9\":" + t
                    + ",\"l3\":" + jsonTime(TIMES[i], iso, true) + ",\"r\":{\"t\":" + t + "}}";
            records.add(new ProducerRecord<>(topic, 0, null, ScanParity.utf8(value)));
        }
        records.add(new ProducerRecord<>(topic, 0, null, ScanParity.utf8("{\"id\":99}")));
        return records;
    }

    private static List<ProducerRecord<byte[], byte[]>> csvRecords(String topic) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < TIMES.length; i++) {
            String t = TIMES[i] == null ? "null" : TIMES[i];
            String value = i + "," + t + "," + t + "," + t + "," + t;
            records.add(new ProducerRecord<>(topic, 0, null, ScanParity.utf8(value)));
        }
        return records;
    }

    private static String table(String name, String columns, String format) {
        return "CREATE TABLE ${t}" + name + " (" + columns + ") WITH ('connector' = '${connector}',"
                + " 'topic' = '${t}" + name + "', 'properties.bootstrap.servers' = '${servers}',"
                + " 'properties.group.id' = '${t}g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', " + format + "${columnar})";
    }

    private static final String JSON_COLUMNS = "id BIGINT, t0 TIMESTAMP(0), t3 TIMESTAMP(3), t6 TIMESTAMP(6),"
            + " t9 TIMESTAMP(9), l3 TIMESTAMP_LTZ(3), r ROW<t TIMESTAMP(3)>";
    private static final String MILLIS_JSON_COLUMNS = "id BIGINT, t0 TIMESTAMP(0), t3 TIMESTAMP(3),"
            + " l3 TIMESTAMP_LTZ(3), r ROW<t TIMESTAMP(3)>";

    /** Stock's and ours for one job; returns stock's records and our run's scan decision. */
    private List<String> run(String name, String columns, String format, String insert,
            List<ProducerRecord<byte[], byte[]>> input, boolean iso) throws Exception {
        String ddl = table("in", columns, format) + "\n--\n" + table("out", columns.replace(", t9 TIMESTAMP(9)", ""),
                format);
        String stock = SqlRuns.newPrefix("s_" + name);
        String columnar = SqlRuns.newPrefix("c_" + name);
        for (String prefix : List.of(stock, columnar)) {
            scans.fill(prefix, 1, topic -> retarget(input, topic));
        }
        runs.run("kafka", stock, 1, 1, ddl, insert);
        String explain = runs.run("kafka-columnar", columnar, 1, 1, ddl, insert);
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        runs.createTables(tEnv, ddl, "kafka-columnar", columnar);
        assertThat(ScanDecisions.of(tEnv, columnar + "in").describe()).as("scan decision").startsWith("admitted: ");
        assertThat(explain).as("sink decision").contains("ColumnarEncode[kafka-columnar[admitted: ");
        List<String> expected = runs.records(stock + "out", false, false);
        List<String> actual = runs.records(columnar + "out", false, false);
        assertThat(String.join("\n", expected)).as("stock writes every fraction digit of the text, whatever the"
                + " precision").contains("05.123456789", "59.987654321", "00:00.0000005");
        System.out.println("STOCK " + name + "\n" + String.join("\n", expected));
        System.out.println("COLUMNAR " + name + "\n" + String.join("\n", actual));
        assertThat(actual).as("columnar vs stock records").isEqualTo(expected);
        return expected;
    }

    private static List<ProducerRecord<byte[], byte[]>> retarget(List<ProducerRecord<byte[], byte[]>> records,
            String topic) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> r : records) {
            out.add(new ProducerRecord<>(topic, r.partition(), r.key(), r.value()));
        }
        return out;
    }

    @Test
    void jsonSelectStar() throws Exception {
        run("json_star", MILLIS_JSON_COLUMNS, "'format' = 'json'", "INSERT INTO ${t}out SELECT * FROM ${t}in",
                jsonRecords("x", false), false);
    }

    @Test
    void jsonIsoProjectionAndFilter() throws Exception {
        run("json_calc", MILLIS_JSON_COLUMNS, "'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601'",
                "INSERT INTO ${t}out SELECT id + 1, t0, t3, l3, r FROM ${t}in WHERE id <> 2",
                jsonRecords("x", true), true);
    }

    @Test
    void jsonWidePrecisions() throws Exception {
        run("json_wide", JSON_COLUMNS, "'format' = 'json'", "INSERT INTO ${t}out SELECT id, t0, t3, t6, l3, r"
                + " FROM ${t}in", jsonRecords("x", false), false);
    }

    @Test
    void csvSelectStar() throws Exception {
        run("csv_star", "id BIGINT, t0 TIMESTAMP(0), t3 TIMESTAMP(3), t6 TIMESTAMP(6), t9 TIMESTAMP(9)",
                "'format' = 'csv', 'csv.null-literal' = 'null'", "INSERT INTO ${t}out SELECT id, t0, t3, t6 FROM ${t}in", csvRecords("x"), false);
    }
}
