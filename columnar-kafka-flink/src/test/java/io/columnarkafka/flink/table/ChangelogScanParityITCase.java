package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same bounded queries over the same debezium-json, ogg-json, canal-json and maxwell-json topics through Flink's
 * {@code kafka} source and through {@code kafka-columnar} give the same changelog: inserts, snapshot reads, updates
 * (one record, an UPDATE_BEFORE and an UPDATE_AFTER row; Canal's and Maxwell's UPDATE_BEFORE made of the changed
 * fields in {@code old} and the others of {@code data}), deletes, Canal's events of several rows and its DDL events,
 * tombstones (no row), canal-json's database and table filters, and, under {@code ignore-parse-errors}, every kind of
 * broken envelope. Rows are compared with their kinds: each id's rows in arrival order (an id's records are in
 * one partition, read in order by one subtask), or, for an aggregate, the table its changelog leaves. Each test
 * asserts the scan was admitted and that the columnar source decoded every row Flink's gave; records both formats
 * reject fail both jobs. Every job leaves no Arrow memory allocated.
 */
class ChangelogScanParityITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private final ScanParity scans = new ScanParity(REPORTER, KAFKA);

    private static final String OPTIONS = " WITH ('connector' = '${connector}', 'topic' = '${t}in',"
            + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
            + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', ";
    private static final String COLUMNS = "id BIGINT, name STRING, price BIGINT, score DOUBLE, ts TIMESTAMP(3),"
            + " tags ARRAY<STRING>";
    private static final int IDS = 30;
    private static final int EVENTS = 420;

    @AfterEach
    void noArrowMemoryOutstanding() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    /**
     * The change events of a format: an insert of {@code after}, an update of {@code before} to {@code after} whose
     * {@code changed} fields ({@code before}'s fields that differ, as a JSON object) are what Canal and Maxwell write to
     * {@code old}, a delete of {@code before}.
     */
    private enum Envelope {
        /** Envelope fields in several orders (op first or last), with Debezium's source and ts_ms. */
        DEBEZIUM("debezium-json") {
            @Override
            String insert(String after, int i) {
                return i % 2 == 0 ? "{\"before\":null,\"after\":" + after + ",\"source\":{\"db\":\"d\"},\"op\":\"c\","
                        + "\"ts_ms\":" + i + "}" : "{\"op\":\"r\",\"after\":" + after + "}";
            }

            @Override
            String update(String before, String after, String changed, int i) {
                return i % 3 == 0 ? "{\"op\":\"u\",\"after\":" + after + ",\"before\":" + before + "}"
                        : "{\"before\":" + before + ",\"after\":" + after + ",\"op\":\"u\",\"ts_ms\":" + i + "}";
            }

            @Override
            String delete(String before, int i) {
                return "{\"before\":" + before + ",\"after\":null,\"op\":\"d\",\"ts_ms\":" + i + "}";
            }
        },
        OGG("ogg-json") {
            @Override
            String insert(String after, int i) {
                return "{\"table\":\"S.T\",\"op_type\":\"I\",\"op_ts\":\"2020-01-02 03:04:05.000000\","
                        + "\"current_ts\":\"2020-01-02T03:04:05.000000\",\"pos\":\"" + i + "\",\"after\":" + after + "}";
            }

            @Override
            String update(String before, String after, String changed, int i) {
                return i % 3 == 0 ? "{\"after\":" + after + ",\"before\":" + before + ",\"op_type\":\"U\"}"
                        : "{\"table\":\"S.T\",\"op_type\":\"U\",\"pos\":\"" + i + "\",\"before\":" + before
                                + ",\"after\":" + after + "}";
            }

            @Override
            String delete(String before, int i) {
                return "{\"table\":\"S.T\",\"op_type\":\"D\",\"before\":" + before + "}";
            }
        },
        /**
         * Canal's events of one row each, of table {@code inventory.products}, with the fields Canal writes besides
         * (es, id, isDdl, pkNames, ts), in several orders.
         */
        CANAL("canal-json") {
            @Override
            String insert(String after, int i) {
                return i % 2 == 0 ? "{\"data\":[" + after + "],\"database\":\"inventory\",\"es\":" + i + ",\"id\":"
                        + i + ",\"isDdl\":false,\"old\":null,\"pkNames\":[\"id\"],\"table\":\"products\",\"ts\":" + i
                        + ",\"type\":\"INSERT\"}"
                        : "{\"type\":\"INSERT\",\"database\":\"inventory\",\"table\":\"products\",\"data\":[" + after + "]}";
            }

            @Override
            String update(String before, String after, String changed, int i) {
                return i % 3 == 0 ? "{\"old\":[" + changed + "],\"type\":\"UPDATE\",\"data\":[" + after + "],"
                        + "\"database\":\"inventory\",\"table\":\"products\"}"
                        : "{\"data\":[" + after + "],\"database\":\"inventory\",\"isDdl\":false,\"old\":[" + changed
                                + "],\"table\":\"products\",\"type\":\"UPDATE\"}";
            }

            @Override
            String delete(String before, int i) {
                return "{\"data\":[" + before + "],\"database\":\"inventory\",\"old\":null,\"table\":\"products\","
                        + "\"type\":\"DELETE\"}";
            }
        },
        /** Maxwell's events, with the fields Maxwell writes besides (ts, xid, commit), in several orders. */
        MAXWELL("maxwell-json") {
            @Override
            String insert(String after, int i) {
                return i % 2 == 0 ? "{\"database\":\"test\",\"table\":\"product\",\"type\":\"insert\",\"ts\":" + i
                        + ",\"xid\":" + i + ",\"commit\":true,\"data\":" + after + "}"
                        : "{\"data\":" + after + ",\"type\":\"insert\"}";
            }

            @Override
            String update(String before, String after, String changed, int i) {
                return i % 3 == 0 ? "{\"old\":" + changed + ",\"data\":" + after + ",\"type\":\"update\"}"
                        : "{\"database\":\"test\",\"table\":\"product\",\"type\":\"update\",\"ts\":" + i
                                + ",\"data\":" + after + ",\"old\":" + changed + "}";
            }

            @Override
            String delete(String before, int i) {
                return "{\"database\":\"test\",\"table\":\"product\",\"type\":\"delete\",\"data\":" + before + "}";
            }
        };

        /** Flink's format identifier. */
        final String format;

        Envelope(String format) {
            this.format = format;
        }

        abstract String insert(String after, int i);

        abstract String update(String before, String after, String changed, int i);

        abstract String delete(String before, int i);
    }

    private interface KeyWriter {
        /** The key of record {@code i}, a change of {@code id}, or null. */
        String of(int id, int i);
    }

    /** A row of {@link #COLUMNS}: names repeat (for the aggregate), nulls, non-BMP text, 1–3 fraction digits. */
    private static String row(int id, int i) {
        return object(fields(id, i).entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue()).toList());
    }

    /** The fields of {@link #row}, each name with its JSON text, in order. */
    private static Map<String, String> fields(int id, int i) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("id", String.valueOf(id));
        fields.put("name", i % 9 == 4 ? "null" : "\"n" + (i % 4) + (i % 10 == 0 ? " \u00fc\uD83D\uDE00" : "") + "\"");
        fields.put("price", String.valueOf(i));
        fields.put("score", String.valueOf(i * 0.5));
        fields.put("ts", "\"2020-01-" + String.format("%02d", 1 + i % 28) + " 03:04:05." + (i % 1000) + "\"");
        fields.put("tags", "[\"a\",\"b" + i + "\"]");
        return fields;
    }

    /** The fields of {@code row(id, before)} that {@code row(id, after)} changes, as Canal and Maxwell write {@code old}. */
    private static String changed(int id, int before, int after) {
        Map<String, String> was = fields(id, before);
        Map<String, String> is = fields(id, after);
        return object(was.entrySet().stream().filter(e -> !e.getValue().equals(is.get(e.getKey())))
                .map(e -> "\"" + e.getKey() + "\":" + e.getValue()).toList());
    }

    private static String object(List<String> members) {
        return "{" + String.join(",", members) + "}";
    }

    /**
     * {@value #EVENTS} change events of ids {@code 0..29} (an id's events in partition {@code id % partitions}): an
     * id's first event inserts it, every 11th event deletes it (half of the deletes followed by a tombstone, as
     * Debezium writes them), the others update it; then {@code extra} events (in partition 0, the first {@code ID} of
     * each replaced by a fresh id, the others by a second one), one after every 10th event.
     */
    private static List<ProducerRecord<byte[], byte[]>> changes(String topic, int partitions, Envelope envelope,
            KeyWriter key, List<String> extra) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        int[] current = new int[IDS];
        Arrays.fill(current, -1);
        int nextExtra = 0;
        for (int i = 0; i < EVENTS; i++) {
            int id = i % IDS;
            String value;
            boolean delete = current[id] >= 0 && i % 11 == 7;
            if (current[id] < 0) {
                current[id] = i;
                value = envelope.insert(row(id, i), i);
            } else if (delete) {
                value = envelope.delete(row(id, current[id]), i);
                current[id] = -1;
            } else {
                value = envelope.update(row(id, current[id]), row(id, i), changed(id, current[id], i), i);
                current[id] = i;
            }
            byte[] keyBytes = ScanParity.utf8(key.of(id, i));
            records.add(new ProducerRecord<>(topic, id % partitions, keyBytes, ScanParity.utf8(value)));
            if (delete && i % 2 == 1) {
                records.add(new ProducerRecord<>(topic, id % partitions, keyBytes, null));
            }
            if (i % 10 == 9 && nextExtra < extra.size()) {
                String id1 = String.valueOf(900 + 2 * nextExtra);
                String id2 = String.valueOf(901 + 2 * nextExtra);
                String value1 = extra.get(nextExtra++).replaceFirst("ID", id1).replace("ID", id2);
                records.add(new ProducerRecord<>(topic, 0, ScanParity.utf8(key.of(Integer.parseInt(id1), i)),
                        ScanParity.utf8(value1)));
            }
        }
        return records;
    }

    /**
     * {@code SELECT *} over the topic {@code records} fills, through both connectors, each id's rows compared in
     * arrival order; asserts the columnar scan was admitted as {@code decision} and decoded every row Flink's gave.
     */
    private ScanParity.Run selectAll(String name, String ddl, int partitions,
            Function<String, List<ProducerRecord<byte[], byte[]>>> records, String decision) throws Exception {
        scans.canonical(ScanParity::perFirstField);
        ScanParity.Run run = scans.parity(name, ddl, "SELECT * FROM ${t}src", partitions, records, false);
        assertThat(run.decision().describe()).isEqualTo("admitted: " + decision + ", bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isEqualTo(run.rows().size());
        return run;
    }

    private static String table(String columns, String format) {
        return "CREATE TABLE ${t}src (" + columns + ")" + OPTIONS + format + ")";
    }

    /**
     * debezium-json over 3 partitions: {@code SELECT *}, a projection (Flink's Calc above the scan: the source takes
     * no projection push-down) and an aggregate over the changelog.
     */
    @Test
    void debeziumSelectProjectionAndAggregate() throws Exception {
        String ddl = table(COLUMNS, "'format' = 'debezium-json'");
        ScanParity.Run all = selectAll("dbz_all", ddl, 3,
                t -> changes(t, 3, Envelope.DEBEZIUM, (id, i) -> null, List.of()), "debezium-json value");
        assertThat(all.rows()).as("every kind").anyMatch(row -> row.startsWith("+I["))
                .anyMatch(row -> row.startsWith("-U[")).anyMatch(row -> row.startsWith("+U["))
                .anyMatch(row -> row.startsWith("-D["));
        assertThat(all.rows().size()).as("an update gives two rows").isGreaterThan(EVENTS);
        long tombstones = changes("t", 3, Envelope.DEBEZIUM, (id, i) -> null, List.of()).stream()
                .filter(record -> record.value() == null).count();
        assertThat(all.skippedRecords()).as("records that gave no row: the tombstones").isEqualTo(tombstones)
                .isPositive();

        ScanParity.Run projection = scans.parity("dbz_projection", ddl, "SELECT id, name, tags FROM ${t}src", 3,
                t -> changes(t, 3, Envelope.DEBEZIUM, (id, i) -> null, List.of()), false);
        assertThat(projection.explain()).as("no projection pushed into the scan").doesNotContain("project=[");
        assertThat(projection.decodedRows()).isEqualTo(all.rows().size());

        scans.canonical(ScanParity::materialized);
        ScanParity.Run aggregate = scans.parity("dbz_agg", ddl,
                "SELECT name, COUNT(*), SUM(price) FROM ${t}src GROUP BY name", 3,
                t -> changes(t, 3, Envelope.DEBEZIUM, (id, i) -> null, List.of()), false, n -> 3);
        assertThat(aggregate.decodedRows()).isEqualTo(all.rows().size());
    }

    /**
     * A json key ({@code key.fields-prefix}, {@code EXCEPT_KEY}) with a debezium-json value, object reuse on: an
     * update's two rows both take the record's key (every 13th key names another id), a record with a null key gives
     * no row (the json key gives none), tombstones none.
     */
    @Test
    void jsonKeyWithADebeziumValueRepeatsTheKeyOnBothRowsOfAnUpdate() throws Exception {
        String ddl = table("k_id BIGINT, " + COLUMNS, "'key.format' = 'json', 'key.fields' = 'k_id',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'debezium-json', 'value.fields-include' = 'EXCEPT_KEY'");
        scans.canonical(ScanParity::perFirstField);
        ScanParity.Run run = scans.parity("dbz_key", ddl, "SELECT * FROM ${t}src", 3,
                t -> changes(t, 3, Envelope.DEBEZIUM, (id, i) -> i % 17 == 3 ? null
                        : "{\"id\":" + (i % 13 == 5 ? id + 1000 : id) + "}", List.of()), true);
        assertThat(run.decision().describe()).isEqualTo("admitted: debezium-json value, json key, bounded latest");
        assertThat(run.decodedRows()).isEqualTo(run.rows().size());
        assertThat(run.rows()).as("an update's rows with another id's key")
                .anyMatch(row -> row.matches("-U\\[10\\d\\d, .*")).anyMatch(row -> row.matches("\\+U\\[10\\d\\d, .*"));
    }

    /** Broken Debezium envelopes ({@code ID}: a fresh id), each skipped, read or converted as Flink does. */
    private static final List<String> BROKEN_DEBEZIUM = List.of(
            "{\"before\":null,\"after\":{\"id\":ID,\"name\":\"x\"},\"op\":\"u\"}",
            "{\"before\":{\"id\":ID},\"after\":null,\"op\":\"u\"}",
            "{\"before\":{\"id\":ID},\"op\":\"u\"}",
            "{\"after\":{\"id\":ID},\"op\":\"x\"}",
            "{\"after\":{\"id\":ID}}",
            "{\"after\":{\"id\":ID},\"op\":null}",
            "not json ID",
            "[{\"after\":{\"id\":ID,\"name\":\"one-element array\"},\"op\":\"c\"}]",
            "[{\"op\":\"c\",\"after\":{\"id\":ID}},{\"op\":\"c\",\"after\":{\"id\":ID}}]",
            "[]",
            "",
            "null",
            "{\"after\":{\"id\":ID,\"price\":\"abc\",\"name\":\"bad price\"},\"op\":\"c\"}",
            "{\"before\":{\"id\":ID,\"name\":\"b\"},\"after\":{\"id\":ID,\"name\":\"a\"},\"op\":\"d\"}",
            "{\"before\":{\"id\":ID,\"name\":\"b\"},\"after\":{\"id\":ID,\"name\":\"a\"},\"op\":\"c\"}",
            "{\"after\":{\"id\":ID,\"name\":\"first\"},\"op\":\"c\",\"after\":{\"id\":ID,\"name\":\"second\"}}",
            "{\"op\":\"r\",\"after\":{\"id\":ID,\"extra\":1,\"tags\":null}}",
            "{\"op\":\"d\",\"before\":null}",
            "{\"op\":\"c\",\"after\":5}",
            "{\"op\":1,\"after\":{\"id\":ID}}",
            "{\"op\":\"cc\",\"after\":{\"id\":ID}}",
            "{\"op\":\"u\",\"before\":{\"id\":ID,\"price\":\"bad\"},\"after\":{\"id\":ID,\"name\":\"bad before\"}}",
            "{\"op\":\"c\",\"before\":{\"id\":\"bad\"},\"after\":{\"id\":ID,\"name\":\"bad unused before\"}}",
            "{\"op\":\"c\",\"after\":{\"id\":ID,\"ts\":\"2020-13-45 99:00:00\",\"name\":\"bad ts\"}}",
            "{\"op\":\"c\",\"after\":{\"id\":ID,\"tags\":\"not an array\",\"name\":\"bad tags\"}}",
            "{\"op\":\"c\",\"after\":{\"id\":ID,\"name\":{\"nested\":true}}}",
            "{\"op\":\"c\",\"after\":{\"id\":ID,\"score\":\"1.5\",\"price\":\"7\"}}",
            "{\"op\":\"c\",\"after\":{\"id\":ID},\"op\":\"d\",\"before\":{\"id\":ID,\"name\":\"last op wins\"}}",
            "{\"op\":\"u\",\"before\":{\"id\":ID,\"name\":\"u-before\"},\"after\":{\"id\":ID,\"name\":\"u-after\"}}",
            "{\"schema\":{},\"payload\":{\"op\":\"c\",\"after\":{\"id\":ID}}}",
            "{\"op\":\"c\",\"after\":{\"id\":ID,\"name\":\"unclosed\"}");

    /** Under {@code ignore-parse-errors}: valid events with every kind of broken envelope among them, 2 partitions. */
    @Test
    void debeziumBrokenEnvelopesUnderIgnoreParseErrors() throws Exception {
        String ddl = table(COLUMNS, "'format' = 'debezium-json', 'debezium-json.ignore-parse-errors' = 'true'");
        ScanParity.Run run = selectAll("dbz_broken", ddl, 2,
                t -> changes(t, 2, Envelope.DEBEZIUM, (id, i) -> null, BROKEN_DEBEZIUM), "debezium-json value");
        assertThat(run.rows()).as("broken envelopes giving rows").anyMatch(row -> row.contains("one-element array"))
                .anyMatch(row -> row.contains("u-after"));
    }

    /**
     * {@code debezium-json.schema-include = true}: each event is the {@code payload} of a Kafka Connect
     * schema/payload wrapping; under {@code ignore-parse-errors} records without a payload object are skipped.
     */
    @Test
    void debeziumSchemaIncludeReadsThePayload() throws Exception {
        String ddl = table(COLUMNS, "'format' = 'debezium-json', 'debezium-json.schema-include' = 'true',"
                + " 'debezium-json.ignore-parse-errors' = 'true'");
        List<String> broken = List.of(
                "{\"schema\":{\"type\":\"struct\"}}",
                "{\"payload\":null,\"schema\":{}}",
                "{\"payload\":5}",
                "{\"payload\":{\"op\":\"c\",\"after\":{\"id\":ID}},\"payload\":{\"op\":\"d\",\"before\":{\"id\":ID,"
                        + "\"name\":\"second payload\"}}}",
                "{\"op\":\"c\",\"after\":{\"id\":ID,\"name\":\"not wrapped\"}}",
                "{\"payload\":{\"op\":\"u\",\"before\":{\"id\":ID},\"after\":{\"id\":ID,\"name\":\"no schema\"}}}");
        ScanParity.Run run = selectAll("dbz_schema", ddl, 2,
                t -> wrapped(changes(t, 2, Envelope.DEBEZIUM, (id, i) -> null, List.of()), broken), "debezium-json value");
        assertThat(run.rows()).anyMatch(row -> row.startsWith("-U[")).anyMatch(row -> row.contains("second payload"));
    }

    /** {@code records}' values as Kafka Connect's JSON converter writes them with schemas, then {@code broken}. */
    private static List<ProducerRecord<byte[], byte[]>> wrapped(List<ProducerRecord<byte[], byte[]>> records,
            List<String> broken) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> record : records) {
            byte[] value = record.value() == null ? null : ScanParity.utf8("{\"schema\":{\"type\":\"struct\","
                    + "\"optional\":false,\"name\":\"d.t.Envelope\"},\"payload\":"
                    + new String(record.value(), java.nio.charset.StandardCharsets.UTF_8) + "}");
            out.add(new ProducerRecord<>(record.topic(), record.partition(), record.key(), value));
        }
        for (int i = 0; i < broken.size(); i++) {
            String value = broken.get(i).replace("ID", String.valueOf(900 + i));
            out.add(new ProducerRecord<>(out.get(0).topic(), 0, null, ScanParity.utf8(value)));
        }
        return out;
    }

    /**
     * ogg-json with a json key on a column the value holds too ({@code ALL}: the value's wins), 3 partitions, under
     * {@code ignore-parse-errors} with broken envelopes; a null key gives no row for either row of an update.
     */
    @Test
    void oggWithAJsonKeyAndBrokenEnvelopes() throws Exception {
        String ddl = table(COLUMNS, "'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'ogg-json',"
                + " 'value.ogg-json.ignore-parse-errors' = 'true', 'value.fields-include' = 'ALL'");
        List<String> broken = List.of(
                "{\"op_type\":\"T\",\"after\":{\"id\":ID}}",
                "{\"op_type\":\"U\",\"after\":{\"id\":ID,\"name\":\"no before\"}}",
                "{\"op_type\":\"D\",\"before\":null}",
                "{\"op_type\":\"I\",\"before\":{\"id\":ID,\"name\":\"b\"},\"after\":{\"id\":ID,\"name\":\"insert with before\"}}",
                "{\"op_type\":\"I\",\"after\":{\"id\":ID,\"price\":\"x\",\"name\":\"bad price\"}}",
                "{\"op\":\"c\",\"after\":{\"id\":ID}}",
                "not json",
                "{\"op_type\":\"U\",\"before\":{\"id\":ID,\"name\":\"ub\"},\"after\":{\"id\":ID,\"name\":\"ua\"}}");
        ScanParity.Run run = selectAll("ogg_key", ddl, 3,
                t -> changes(t, 3, Envelope.OGG, (id, i) -> i % 17 == 3 ? null : "{\"id\":" + (id + 500) + "}", broken),
                "ogg-json value, json key");
        assertThat(run.rows()).anyMatch(row -> row.startsWith("-U[")).anyMatch(row -> row.startsWith("-D["))
                .anyMatch(row -> row.contains("insert with before")).noneMatch(row -> row.matches(".\\w\\[5\\d\\d, .*"));
    }

    /**
     * Canal events Flink reads without error besides the one-row events ({@code ID}: a fresh id): several rows in
     * {@code data}, an UPDATE_BEFORE taking a field that is null in its {@code old} row but named anywhere in the whole
     * {@code old} value (Flink's {@code findValue}, nested objects too) as null, more {@code old} rows than {@code
     * data} rows, an empty {@code data}, a DDL event, a repeated {@code type} (the last wins).
     */
    private static final List<String> CANAL_EXTRA = List.of(
            "{\"data\":[{\"id\":ID,\"name\":\"multi 1\",\"price\":1},{\"id\":ID,\"name\":\"multi 2\"}],"
                    + "\"database\":\"inventory\",\"table\":\"products\",\"type\":\"INSERT\"}",
            "{\"data\":[{\"id\":ID,\"name\":\"a1\",\"price\":1},{\"id\":ID,\"name\":\"b\",\"price\":2}],"
                    + "\"old\":[{\"name\":\"a0\"},{\"price\":1}],\"type\":\"UPDATE\"}",
            "{\"type\":\"UPDATE\",\"data\":[{\"id\":ID,\"name\":\"visible\",\"price\":5}],"
                    + "\"old\":[{\"price\":4,\"extra\":{\"name\":\"nested\"}}]}",
            "{\"data\":[{\"id\":ID,\"name\":\"x\"}],\"old\":[{\"name\":\"y\"},{\"name\":\"z\"}],\"type\":\"UPDATE\"}",
            "{\"data\":[{\"id\":ID,\"name\":\"gone\"},{\"id\":ID,\"tags\":[]}],\"old\":null,\"type\":\"DELETE\"}",
            "{\"data\":[],\"type\":\"INSERT\"}",
            "{\"data\":null,\"database\":\"inventory\",\"isDdl\":true,\"old\":null,\"sql\":\"CREATE TABLE x (id INT)\","
                    + "\"table\":\"x\",\"type\":\"CREATE\"}",
            "{\"type\":\"DELETE\",\"data\":[{\"id\":ID,\"name\":\"type \\\"last\\\" wins\"}],\"type\":\"INSERT\"}");

    /**
     * canal-json over 3 partitions: {@code SELECT *} (with {@link #CANAL_EXTRA}) and a projection (Flink's Calc above
     * the scan: the source takes no projection push-down, as Flink's). The aggregate over a changelog of these
     * formats is maxwell-json's test.
     */
    @Test
    void canalSelectAndProjection() throws Exception {
        String ddl = table(COLUMNS, "'format' = 'canal-json'");
        ScanParity.Run all = selectAll("canal_all", ddl, 3,
                t -> changes(t, 3, Envelope.CANAL, (id, i) -> null, CANAL_EXTRA), "canal-json value");
        assertThat(all.rows()).as("every kind").anyMatch(row -> row.startsWith("+I["))
                .anyMatch(row -> row.startsWith("-U[")).anyMatch(row -> row.startsWith("+U["))
                .anyMatch(row -> row.startsWith("-D["))
                .as("findValue's UPDATE_BEFORE").contains("-U[903, null, 1, null, null, null]", "-U[904, null, 4, null, null, null]")
                .anyMatch(row -> row.contains("multi 2")).anyMatch(row -> row.contains("type \"last\" wins"));

        ScanParity.Run projection = scans.parity("canal_projection", ddl, "SELECT id, name, tags FROM ${t}src", 3,
                t -> changes(t, 3, Envelope.CANAL, (id, i) -> null, List.of()), false);
        assertThat(projection.explain()).as("no projection pushed into the scan").doesNotContain("project=[");
        assertThat(projection.decision().describe()).isEqualTo("admitted: canal-json value, bounded latest");
        assertThat(projection.decodedRows()).isEqualTo(projection.rows().size()).isGreaterThan(EVENTS);
    }

    /**
     * canal-json's {@code database.include} and {@code table.include} (regular expressions matched against the whole
     * text, Jackson's {@code asText()} of the field) and, under {@code ignore-parse-errors}, broken envelopes, 2
     * partitions. A record without the filtered field fails in Flink, so is skipped here; a record whose {@code data}
     * fails after its first row keeps that row (Flink emits what it collected before the failure).
     */
    @Test
    void canalFiltersAndBrokenEnvelopesUnderIgnoreParseErrors() throws Exception {
        String ddl = table(COLUMNS, "'format' = 'canal-json', 'canal-json.ignore-parse-errors' = 'true',"
                + " 'canal-json.database.include' = 'inv.*', 'canal-json.table.include' = 'products|orders_\\d+'");
        List<String> extra = List.of(
                "{\"database\":\"inventory\",\"table\":\"orders_12\",\"type\":\"INSERT\",\"data\":[{\"id\":ID,"
                        + "\"name\":\"orders table\"}]}",
                "{\"database\":\"inv\",\"table\":\"orders_x\",\"type\":\"INSERT\",\"data\":[{\"id\":ID,\"name\":\"orders_x\"}]}",
                "{\"database\":\"xinventory\",\"table\":\"products\",\"type\":\"INSERT\",\"data\":[{\"id\":ID,"
                        + "\"name\":\"not a whole match\"}]}",
                "{\"database\":\"other\",\"table\":\"products\",\"type\":\"INSERT\",\"data\":[{\"id\":ID}]}",
                "{\"table\":\"products\",\"type\":\"INSERT\",\"data\":[{\"id\":ID,\"name\":\"no database\"}]}",
                "{\"database\":null,\"table\":\"products\",\"type\":\"INSERT\",\"data\":[{\"id\":ID}]}",
                "{\"database\":[\"inventory\"],\"table\":\"products\",\"type\":\"INSERT\",\"data\":[{\"id\":ID}]}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"data\":[{\"id\":ID,\"name\":\"kept\"},null],"
                        + "\"type\":\"INSERT\"}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"TRUNCATE\",\"data\":[{\"id\":ID}]}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"data\":[{\"id\":ID}]}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"INSERT\",\"data\":{\"id\":ID}}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"UPDATE\",\"data\":[{\"id\":ID,"
                        + "\"name\":\"no old\"}]}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"INSERT\",\"data\":[{\"id\":ID,"
                        + "\"price\":\"abc\",\"name\":\"bad price\"}]}",
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"CREATE\",\"data\":[{\"id\":ID,"
                        + "\"price\":\"abc\"}]}",
                "not json",
                "null",
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"DELETE\",\"data\":[{\"id\":ID,"
                        + "\"name\":\"unclosed\"}]");
        ScanParity.Run run = selectAll("canal_filters", ddl, 2,
                t -> changes(t, 2, Envelope.CANAL, (id, i) -> null, extra), "canal-json value");
        assertThat(run.rows()).anyMatch(row -> row.startsWith("-U[")).anyMatch(row -> row.contains("orders table"))
                .anyMatch(row -> row.contains("kept")).anyMatch(row -> row.contains("bad price"))
                .noneMatch(row -> row.contains("not a whole match") || row.contains("orders_x"));
    }

    /**
     * maxwell-json over 3 partitions with ISO-8601 timestamps under {@code ignore-parse-errors}: {@code SELECT *} with
     * broken envelopes among the events, and an aggregate over the changelog.
     */
    @Test
    void maxwellSelectAndAggregateWithIsoTimestampsAndBrokenEnvelopes() throws Exception {
        String ddl = table(COLUMNS, "'format' = 'maxwell-json', 'maxwell-json.ignore-parse-errors' = 'true',"
                + " 'maxwell-json.timestamp-format.standard' = 'ISO-8601'");
        List<String> broken = List.of(
                "{\"type\":\"insert\"}",
                "{\"type\":\"update\",\"data\":{\"id\":ID,\"name\":\"no old\"}}",
                "{\"type\":\"delete\",\"data\":null}",
                "{\"type\":\"truncate\",\"data\":{\"id\":ID}}",
                "{\"type\":\"insert\",\"data\":[{\"id\":ID,\"name\":\"an array\"}]}",
                "{\"type\":\"insert\",\"data\":{\"id\":ID,\"price\":\"x\",\"name\":\"bad price\"}}",
                "{\"type\":\"insert\",\"data\":{\"id\":ID,\"ts\":\"2020-01-01 03:04:05.1\",\"name\":\"sql ts\"}}",
                "{\"type\":\"update\",\"data\":{\"id\":ID,\"name\":\"m-after\",\"price\":2},\"old\":{\"name\":\"m-before\"}}",
                "{\"type\":\"update\",\"data\":{\"id\":ID,\"name\":\"nested old\"},\"old\":{\"x\":{\"name\":\"deep\"}}}",
                "{\"data\":{\"id\":ID,\"name\":\"type last wins\"},\"type\":\"insert\",\"type\":\"delete\"}",
                "not json",
                "");
        ScanParity.Run all = selectAll("maxwell_all", ddl, 3,
                t -> isoTimestamps(changes(t, 3, Envelope.MAXWELL, (id, i) -> null, broken)), "maxwell-json value");
        assertThat(all.rows()).anyMatch(row -> row.startsWith("-U[")).anyMatch(row -> row.startsWith("-D["))
                .anyMatch(row -> row.contains("m-before")).anyMatch(row -> row.contains("bad price"))
                .anyMatch(row -> row.matches("\\+I\\[\\d+, n\\d, \\d+, [\\d.]+, 2020-01-\\d\\dT03:04:05.*"));

        scans.canonical(ScanParity::materialized);
        ScanParity.Run aggregate = scans.parity("maxwell_agg", ddl,
                "SELECT name, COUNT(*), SUM(price), MAX(ts) FROM ${t}src GROUP BY name", 3,
                t -> isoTimestamps(changes(t, 3, Envelope.MAXWELL, (id, i) -> null, List.of())), false, n -> 3);
        assertThat(aggregate.decision().describe()).isEqualTo("admitted: maxwell-json value, bounded latest");
        assertThat(aggregate.explain()).as("no projection pushed into the scan").doesNotContain("project=[");
        assertThat(aggregate.decodedRows()).isGreaterThan(EVENTS);
    }

    /** {@code records} with each row's {@code ts} in ISO-8601 ({@code T} between date and time). */
    private static List<ProducerRecord<byte[], byte[]>> isoTimestamps(List<ProducerRecord<byte[], byte[]>> records) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> record : records) {
            byte[] value = record.value() == null ? null : ScanParity.utf8(
                    new String(record.value(), java.nio.charset.StandardCharsets.UTF_8).replace(" 03:04:05.", "T03:04:05."));
            out.add(new ProducerRecord<>(record.topic(), record.partition(), record.key(), value));
        }
        return out;
    }

    /**
     * Without {@code ignore-parse-errors} an unknown {@code op} or {@code type}, malformed JSON and a value Flink
     * cannot convert fail both jobs, the columnar one naming the record's partition and offset.
     */
    @Test
    void anUnknownOpOrMalformedJsonFailsBothJobs() throws Exception {
        ScanParity.Failure unknownOp = brokenAt21("dbz_bad_op", Envelope.DEBEZIUM, "{\"op\":\"x\",\"after\":{\"id\":21}}");
        assertThat(unknownOp.decision().describe()).isEqualTo("admitted: debezium-json value, bounded latest");
        assertThat(ScanParity.causes(unknownOp.stock())).contains("Unknown \"op\" value \"x\"");
        assertThat(ScanParity.causes(unknownOp.columnar())).contains("partition 1, offset 10")
                .contains("Unknown \"op\" value \"x\"");

        ScanParity.Failure malformed = brokenAt21("dbz_bad_json", Envelope.DEBEZIUM, "{\"op\":\"c\",\"after\":{\"id\":21,\"name\":\"x\"");
        assertThat(ScanParity.causes(malformed.stock())).contains("Corrupt Debezium JSON message");
        assertThat(ScanParity.causes(malformed.columnar())).contains("partition 1, offset 10")
                .contains("Corrupt Debezium JSON message");

        ScanParity.Failure unknownType = brokenAt21("canal_bad_type", Envelope.CANAL,
                "{\"database\":\"inventory\",\"table\":\"products\",\"type\":\"TRUNCATE\",\"data\":[{\"id\":21}]}");
        assertThat(unknownType.decision().describe()).isEqualTo("admitted: canal-json value, bounded latest");
        assertThat(ScanParity.causes(unknownType.stock())).contains("Unknown \"type\" value \"TRUNCATE\"");
        assertThat(ScanParity.causes(unknownType.columnar())).contains("partition 1, offset 10")
                .contains("Unknown \"type\" value \"TRUNCATE\"");

        ScanParity.Failure badValue = brokenAt21("maxwell_bad_value", Envelope.MAXWELL,
                "{\"type\":\"insert\",\"data\":{\"id\":21,\"price\":\"abc\"}}");
        assertThat(badValue.decision().describe()).isEqualTo("admitted: maxwell-json value, bounded latest");
        assertThat(ScanParity.causes(badValue.stock())).contains("Corrupt Maxwell JSON message");
        assertThat(ScanParity.causes(badValue.columnar())).contains("partition 1, offset 10")
                .contains("Corrupt Maxwell JSON message").contains("price");
    }

    /** A topic of 40 inserts in {@code envelope}'s format over 2 partitions whose 22nd record (partition 1, offset 10) is {@code bad}. */
    private ScanParity.Failure brokenAt21(String name, Envelope envelope, String bad) throws Exception {
        return scans.failureParity(name, table(COLUMNS, "'format' = '" + envelope.format + "'"), "SELECT * FROM ${t}src", 2, t -> {
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String value = i == 21 ? bad : envelope.insert(row(i, i), i);
                records.add(new ProducerRecord<>(t, i % 2, null, ScanParity.utf8(value)));
            }
            return records;
        });
    }

    /**
     * A format metadata column sends the whole table to Flink's source, also for a query that does not read it: Flink's
     * Kafka source takes no metadata projection, so its debezium-json converts {@code ts_ms} for every record, and a
     * {@code ts_ms} it cannot convert fails the job; the columnar decoder, which would not read it, is not used.
     */
    @Test
    void anUnreadFormatMetadataColumnFailsAsInFlink() throws Exception {
        String ddl = table(COLUMNS + ", ingested TIMESTAMP_LTZ(3) METADATA FROM 'value.ingestion-timestamp' VIRTUAL",
                "'format' = 'debezium-json'");
        ScanParity.Failure failure = scans.failureParity("dbz_meta", ddl, "SELECT id, name FROM ${t}src", 2, t -> {
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String ts = i == 13 ? "\"not a number\"" : String.valueOf(i);
                records.add(new ProducerRecord<>(t, i % 2, null,
                        ScanParity.utf8("{\"op\":\"c\",\"after\":" + row(i, i) + ",\"ts_ms\":" + ts + "}")));
            }
            return records;
        });
        assertThat(ScanParity.causes(failure.stock())).contains("Corrupt Debezium JSON message");
        assertThat(ScanParity.causes(failure.columnar())).contains("Corrupt Debezium JSON message");
        assertThat(failure.decision().describe()).startsWith("fallback: UNSUPPORTED_METADATA value.ingestion-timestamp:");
    }
}
