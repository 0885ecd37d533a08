package io.columnarkafka.flink.table;

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
 * The same bounded queries over the same upsert topic through Flink's {@code upsert-kafka} source and through
 * {@code upsert-kafka-columnar} give the same changelog: inserts, updates of the same key, tombstones (DELETE rows
 * carrying the key), tombstones of keys never seen, records with a null key. A query's rows pass the planner's
 * {@code ChangelogNormalize}, so they are compared with their kinds: a key's rows in arrival order (each key's
 * records are in one partition, read in order, normalized by one subtask), or, for an aggregate (whose rows
 * interleave the normalizing subtasks), as the table the changelog leaves. Each test asserts the scan was admitted
 * and that the columnar source decoded every record giving a row.
 */
class UpsertScanParityITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private final ScanParity scans =
            new ScanParity(REPORTER, KAFKA).connectors("upsert-kafka", "upsert-kafka-columnar");

    private static final String UPSERT_OPTIONS = " WITH ('connector' = '${connector}', 'topic' = '${t}in',"
            + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
            + " 'scan.bounded.mode' = 'latest-offset', ";

    @AfterEach
    void noArrowMemoryOutstanding() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    /**
     * Keys {@code 0..39} over the partitions (a key's records in partition {@code key % partitions}), each updated
     * 15 times, every 7th record a tombstone; then tombstones of keys 1000..1004, never seen; with {@code
     * nullKeys}, every 50th record followed by one with a null key. {@code key} and {@code value} write a key and a
     * value for (key, record).
     */
    private static List<ProducerRecord<byte[], byte[]>> upserts(String topic, int partitions, boolean nullKeys,
            KeyWriter key, ValueWriter value) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            int k = i % 40;
            String v = i % 7 == 3 ? null : value.of(k, i);
            records.add(new ProducerRecord<>(topic, k % partitions, ScanParity.utf8(key.of(k)), ScanParity.utf8(v)));
            if (nullKeys && i % 50 == 25) {
                records.add(new ProducerRecord<>(topic, i % partitions, null, ScanParity.utf8(value.of(k, i))));
            }
        }
        for (int k = 1000; k < 1005; k++) {
            records.add(new ProducerRecord<>(topic, k % partitions, ScanParity.utf8(key.of(k)), null));
        }
        return records;
    }

    private interface KeyWriter {
        String of(int key);
    }

    private interface ValueWriter {
        String of(int key, int record);
    }

    /** Records giving a row in {@link #upserts}: all but the 12 with a null key (the key formats give no row). */
    private static final long KEYED_RECORDS = 600 + 5;

    /** A key's name never changes ({@code n<key % 5>}), its price does with every update. */
    private static String jsonValue(int k, int i) {
        return "{\"name\": \"n" + (k % 5) + "\", \"price\": " + (i * 0.5) + "}";
    }

    /**
     * json key and value, {@code EXCEPT_KEY}, 3 partitions: {@code SELECT *}; {@code SELECT id, name}, which Flink 2.2
     * optimizes without {@code ChangelogNormalize}; an aggregate over the changelog.
     */
    @Test
    void jsonKeyAndValueExceptKey() throws Exception {
        String ddl = "CREATE TABLE ${t}src (id BIGINT, name STRING, price DOUBLE, PRIMARY KEY (id) NOT ENFORCED)"
                + UPSERT_OPTIONS + "'key.format' = 'json', 'value.format' = 'json',"
                + " 'value.fields-include' = 'EXCEPT_KEY')";
        scans.canonical(ScanParity::perFirstField);
        ScanParity.Run all = scans.parity("upsert_json", ddl, "SELECT * FROM ${t}src", 3,
                t -> upserts(t, 3, true, k -> "{\"id\": " + k + "}", UpsertScanParityITCase::jsonValue), false,
                n -> 150);
        assertThat(all.decision().describe()).isEqualTo("admitted: json value, json key, upsert, bounded latest");
        assertThat(all.decodedRows()).as("rows decoded by the columnar source").isEqualTo(KEYED_RECORDS);
        assertThat(all.rows()).anyMatch(row -> row.startsWith("-D[")).anyMatch(row -> row.startsWith("+U["));

        ScanParity.Run names = scans.parity("upsert_json_names", ddl, "SELECT id, name FROM ${t}src", 3,
                t -> upserts(t, 3, true, k -> "{\"id\": " + k + "}", UpsertScanParityITCase::jsonValue), false,
                n -> 150);
        assertThat(names.rows()).as("DELETE rows reach the sink").anyMatch(row -> row.startsWith("-D["));
        assertThat(names.explain()).as("no projection pushed into the upsert scan").doesNotContain("project=[");

        scans.canonical(ScanParity::materialized);
        ScanParity.Run aggregate = scans.parity("upsert_json_agg", ddl,
                "SELECT name, COUNT(*), SUM(price) FROM ${t}src GROUP BY name", 3,
                t -> upserts(t, 3, true, k -> "{\"id\": " + k + "}", UpsertScanParityITCase::jsonValue), false, n -> 5);
        assertThat(aggregate.decodedRows()).isEqualTo(KEYED_RECORDS);
    }

    /**
     * A two-column csv key and a json value holding every column ({@code ALL}), object reuse on, 2 partitions:
     * a value's key fields win over the key's (every 11th value names another id), a tombstone's row takes the key's.
     */
    @Test
    void csvKeyAndJsonValueAll() throws Exception {
        String ddl = "CREATE TABLE ${t}src (id BIGINT, region STRING, name STRING, price DOUBLE,"
                + " PRIMARY KEY (id, region) NOT ENFORCED)" + UPSERT_OPTIONS + "'key.format' = 'csv',"
                + " 'value.format' = 'json', 'value.fields-include' = 'ALL')";
        scans.canonical(ScanParity::perFirstField);
        ScanParity.Run run = scans.parity("upsert_csv_all", ddl, "SELECT * FROM ${t}src", 2,
                t -> upserts(t, 2, true, k -> k + "," + region(k) + "\n", (k, i) -> "{\"id\": " + (i % 11 == 5 ? k + 100 : k)
                        + ", \"region\": \"" + region(k) + "\", \"name\": \"n" + i + "\", \"price\": " + i + "}"), true);
        assertThat(run.decision().describe()).isEqualTo("admitted: json value, csv key, upsert, bounded latest");
        assertThat(run.decodedRows()).isEqualTo(KEYED_RECORDS);
        assertThat(run.rows()).anyMatch(row -> row.startsWith("+I[105, "));
    }

    private static String region(int key) {
        return key % 2 == 0 ? "eu" : "us";
    }

    /**
     * raw key and value ({@code EXCEPT_KEY}), 2 partitions, object reuse on; then the same table over records with
     * null keys, which Flink's raw format makes rows with a null key column: Flink's job fails on the primary key's
     * NOT NULL (its sink's enforcer), and so does the columnar one, with the same error.
     */
    @Test
    void rawKeyAndValueAndNullKeysFailAsInFlink() throws Exception {
        String ddl = "CREATE TABLE ${t}src (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED)" + UPSERT_OPTIONS
                + "'key.format' = 'raw', 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY')";
        scans.canonical(ScanParity::perFirstField);
        ScanParity.Run run = scans.parity("upsert_raw", ddl, "SELECT * FROM ${t}src", 2,
                t -> upserts(t, 2, false, k -> "k" + k, UpsertScanParityITCase::rawValue), true, n -> 150);
        assertThat(run.decision().describe()).isEqualTo("admitted: raw value, raw key, upsert, bounded latest");
        assertThat(run.decodedRows()).isEqualTo(KEYED_RECORDS);

        ScanParity.Failure nullKeys = scans.failureParity("upsert_raw_null", ddl, "SELECT * FROM ${t}src", 2,
                t -> upserts(t, 2, true, k -> "k" + k, UpsertScanParityITCase::rawValue));
        assertThat(nullKeys.decision().isAdmitted()).isTrue();
        String notNull = "Column 'k' is NOT NULL, however, a null value is being written into it";
        assertThat(ScanParity.causes(nullKeys.stock())).contains(notNull);
        assertThat(ScanParity.causes(nullKeys.columnar())).contains(notNull);
    }

    private static String rawValue(int k, int i) {
        return "v" + i + (i % 9 == 0 ? " \u00fc\uD83D\uDE00" : "");
    }
}
