package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import io.columnarkafka.format.protobuf.testmsg.Maps3;
import io.columnarkafka.format.protobuf.testmsg.Repeated3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The formats admitted through SQL after json, csv, raw and avro ({@code debezium-json}, {@code canal-json},
 * {@code maxwell-json}, {@code ogg-json}, {@code protobuf}),
 * each proven as {@link KafkaColumnarParityITCase} proves those: the same INSERT into {@code kafka} and
 * {@code kafka-columnar} writes identical records through the real broker. Plus the shapes Flink itself
 * refuses (a changelog key format, {@code schema-include}, {@code avro-confluent} without Confluent's client):
 * {@code kafka-columnar} raises exactly Flink's error, since Flink's own factory builds its sink.
 */
class FormatParityITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final SqlRuns RUNS = new SqlRuns(KAFKA);

    /**
     * An updating aggregate: each change of a group is an UPDATE_BEFORE then UPDATE_AFTER, and a group
     * leaving the HAVING range is a DELETE; the changelog JSON formats write each by its row kind. The VALUES hold only
     * literals of one type per column, so the planner keeps them one ordered source (a cast would turn them
     * into a union of single rows, whose order varies) and both runs see the same changelog; nulls come from
     * NULLIF markers.
     */
    private static final String AGGREGATE = "INSERT INTO ${t}sink SELECT user_id, COUNT(*),"
            + " CAST(SUM(cents) / 100.0 AS DECIMAL(10, 2)), MAX(TO_TIMESTAMP_LTZ(NULLIF(ms, 9999999999999), 3)),"
            + " MAX(NULLIF(note, '---')) FROM (SELECT * FROM (VALUES"
            + " ('u1', 150, 1577934245120, '---'),"
            + " ('u2', 200, 1625097599000, 'x\"y'),"
            + " ('u1', 325, 2147483649001, 'üñí'),"
            + " ('u3', 10000, 9999999999999, '---'),"
            + " ('u2', 500, 1643767322200, 'zzz'),"
            + " ('u1', 600, 1677812583000, '---')"
            + ") AS v(user_id, cents, ms, note)) GROUP BY user_id HAVING SUM(cents) < 1200";

    private static final String AGGREGATE_COLUMNS =
            "user_id STRING, cnt BIGINT, total DECIMAL(10, 2), last_ts TIMESTAMP_LTZ(3), note STRING";

    @ParameterizedTest
    @ValueSource(strings = {"debezium-json", "canal-json"})
    void changelogJsonUpdatingAggregateWithJsonKeyOnThreePartitions(String format) throws Exception {
        String summary = changelogParity(format.replace("-json", ""), 3, sinkDdl(AGGREGATE_COLUMNS,
                "'key.format' = 'json', 'key.fields' = 'user_id', 'value.format' = '" + format + "'"), AGGREGATE);
        assertThat(summary).contains("kafka-columnar[admitted: " + format + " value, json key]");
    }

    @Test
    void debeziumJsonEveryWriteOptionOnAnUpdatingAggregate() throws Exception {
        String summary = changelogParity("debezium_options", 1, sinkDdl(AGGREGATE_COLUMNS,
                "'format' = 'debezium-json', 'debezium-json.timestamp-format.standard' = 'ISO-8601',"
                        + " 'debezium-json.encode.decimal-as-plain-number' = 'true',"
                        + " 'debezium-json.encode.ignore-null-fields' = 'true',"
                        + " 'debezium-json.schema-include' = 'false', 'debezium-json.ignore-parse-errors' = 'true'"),
                AGGREGATE);
        assertThat(summary).contains("kafka-columnar[admitted: debezium-json value]");
    }

    @Test
    void debeziumJsonMapNullKeyLiteralAndNestedTypes() throws Exception {
        String summary = parity("debezium_map", 1, sinkDdl(
                "id INT, m MAP<STRING, INT>, r ROW<a INT, b ARRAY<STRING>>, d DATE, t TIME(0), b BYTES",
                "'value.format' = 'debezium-json', 'value.debezium-json.map-null-key.mode' = 'LITERAL',"
                        + " 'value.debezium-json.map-null-key.literal' = 'nk'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (1, MAP['a', 1, CAST(NULL AS STRING), 2], ROW(1, ARRAY['x', CAST(NULL AS STRING)]),"
                        + "   DATE '2020-02-29', TIME '23:59:59', X'00ff'),"
                        + " (2, CAST(NULL AS MAP<STRING, INT>), CAST(NULL AS ROW<a INT, b ARRAY<STRING>>),"
                        + "   CAST(NULL AS DATE), CAST(NULL AS TIME(0)), CAST(NULL AS BYTES)))");
        assertThat(summary).contains("kafka-columnar[admitted: debezium-json value]");
    }

    @Test
    void debeziumJsonNanosecondTimestampsAreNativeAndMatch() throws Exception {
        String summary = parity("debezium_nanos", 1, sinkDdl(KafkaColumnarParityITCase.NANOSECOND_COLUMNS,
                "'format' = 'debezium-json'"), KafkaColumnarParityITCase.NANOSECOND_INSERT);
        assertThat(summary).contains("kafka-columnar[admitted: debezium-json value]");
    }

    /**
     * canal-json, maxwell-json and ogg-json on the updating aggregate with every write option changed from its
     * default, and each format's deserialization-only options set (accepted, no effect on the bytes).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "canal-json|, 'canal-json.database.include' = 'db.*', 'canal-json.table.include' = 't[0-9]'",
        "maxwell-json|",
        "ogg-json|"})
    void changelogJsonEveryWriteOptionOnAnUpdatingAggregate(String format, String decodeOnly) throws Exception {
        String summary = changelogParity(format.replace("-json", "_options"), 1, sinkDdl(AGGREGATE_COLUMNS,
                "'format' = '" + format + "', '" + format + ".timestamp-format.standard' = 'ISO-8601',"
                        + " '" + format + ".encode.decimal-as-plain-number' = 'true',"
                        + " '" + format + ".encode.ignore-null-fields' = 'true',"
                        + " '" + format + ".ignore-parse-errors' = 'true'" + (decodeOnly == null ? "" : decodeOnly)),
                AGGREGATE);
        assertThat(summary).contains("kafka-columnar[admitted: " + format + " value]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"canal-json", "maxwell-json", "ogg-json"})
    void changelogJsonMapNullKeyLiteralNestedTypesAndNanosecondTimestamps(String format) throws Exception {
        String summary = parity(format.replace("-json", "_map"), 1, sinkDdl(
                "id INT, m MAP<STRING, INT>, r ROW<a INT, b ARRAY<STRING>>, d DATE, t TIME(0), b BYTES",
                "'value.format' = '" + format + "', 'value." + format + ".map-null-key.mode' = 'LITERAL',"
                        + " 'value." + format + ".map-null-key.literal' = 'nk'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (1, MAP['a', 1, CAST(NULL AS STRING), 2], ROW(1, ARRAY['x', CAST(NULL AS STRING)]),"
                        + "   DATE '2020-02-29', TIME '23:59:59', X'00ff'),"
                        + " (2, CAST(NULL AS MAP<STRING, INT>), CAST(NULL AS ROW<a INT, b ARRAY<STRING>>),"
                        + "   CAST(NULL AS DATE), CAST(NULL AS TIME(0)), CAST(NULL AS BYTES)))");
        assertThat(summary).contains("kafka-columnar[admitted: " + format + " value]");
        summary = parity(format.replace("-json", "_nanos"), 1, sinkDdl(KafkaColumnarParityITCase.NANOSECOND_COLUMNS,
                "'format' = '" + format + "'"), KafkaColumnarParityITCase.NANOSECOND_INSERT);
        assertThat(summary).contains("kafka-columnar[admitted: " + format + " value]");
    }

    @Test
    void csvNanosecondTimestampsAreNativeAndMatch() throws Exception {
        String summary = parity("csv_nanos", 1, sinkDdl(KafkaColumnarParityITCase.NANOSECOND_COLUMNS,
                "'format' = 'csv'"), KafkaColumnarParityITCase.NANOSECOND_INSERT);
        assertThat(summary).contains("kafka-columnar[admitted: csv value]");
    }

    @Test
    void avroNanosecondTimestampFailsExactlyAsFlink() {
        // Flink's avro format has no precision above 6: the columnar sink falls back and Flink raises its error.
        String message = sameErrorAsFlink("avro_nanos", sinkDdl("id INT, ts TIMESTAMP(9)", "'format' = 'avro'"),
                "INSERT INTO ${t}sink VALUES (1, TIMESTAMP '2020-01-02 03:04:05.123456789')");
        assertThat(message).contains("Avro does not support TIMESTAMP type with precision: 9");
    }

    @Test
    void debeziumJsonAsKeyFormatFailsExactlyAsFlink() {
        // Flink's Kafka factory: a key format must be INSERT-only.
        String message = sameErrorAsFlink("debezium_key", sinkDdl("id INT, name STRING",
                "'key.format' = 'debezium-json', 'key.fields' = 'id', 'value.format' = 'json'"),
                "INSERT INTO ${t}sink VALUES (1, 'a')");
        assertThat(message).contains("A key format should only deal with INSERT-only records");
    }

    @Test
    void debeziumJsonSchemaIncludeFailsExactlyAsFlink() {
        String message = sameErrorAsFlink("debezium_schema", sinkDdl("id INT, name STRING",
                "'format' = 'debezium-json', 'debezium-json.schema-include' = 'true'"),
                "INSERT INTO ${t}sink VALUES (1, 'a')");
        assertThat(message).contains("schema-include");
    }

    @Test
    void protobufKeyWithPrefixAndValueOnThreePartitions() throws Exception {
        String summary = parity("protobuf", 3, sinkDdl(
                "k_x INT, k_s STRING, i64 BIGINT, d DOUBLE, s STRING, `by` BYTES, e STRING, b BOOLEAN,"
                        + " m ROW<x INT, s STRING, l ARRAY<BIGINT>>",
                "'key.format' = 'protobuf', 'key.protobuf.message-class-name' = '" + Inner3.class.getName() + "',"
                        + " 'key.fields' = 'k_x;k_s', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'protobuf', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.protobuf.message-class-name' = '" + Scalars3.class.getName() + "'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (1, 'a', CAST(-5 AS BIGINT), 1.5E0, 'üñí 😀', X'0001ff', 'BLUE', true,"
                        + "   ROW(7, 'in', ARRAY[CAST(1 AS BIGINT), CAST(NULL AS BIGINT), -3])),"
                        + " (2, CAST(NULL AS STRING), CAST(NULL AS BIGINT), CAST(NULL AS DOUBLE), CAST(NULL AS STRING),"
                        + "   CAST(NULL AS BYTES), 'MINUS', CAST(NULL AS BOOLEAN),"
                        + "   CAST(NULL AS ROW<x INT, s STRING, l ARRAY<BIGINT>>)),"
                        + " (CAST(NULL AS INT), 'c', 9223372036854775807, -0.0E0, '', X'', 'RED', false,"
                        + "   ROW(CAST(NULL AS INT), CAST(NULL AS STRING), CAST(NULL AS ARRAY<BIGINT>))))");
        assertThat(summary).contains("kafka-columnar[admitted: protobuf value, protobuf key]");
    }

    @Test
    void protobufRepeatedFieldsWithNullStringLiteral() throws Exception {
        String summary = parity("protobuf_repeated", 1, sinkDdl(
                "ri ARRAY<INT>, rs ARRAY<STRING>, re ARRAY<INT>, rm ARRAY<ROW<x INT, s STRING>>",
                "'format' = 'protobuf', 'protobuf.message-class-name' = '" + Repeated3.class.getName() + "',"
                        + " 'protobuf.write-null-string-literal' = 'N/A'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (ARRAY[1, CAST(NULL AS INT), -1], ARRAY['a', CAST(NULL AS STRING)], ARRAY[2, -1],"
                        + "   ARRAY[ROW(1, 'x'), CAST(NULL AS ROW<x INT, s STRING>)]),"
                        + " (CAST(NULL AS ARRAY<INT>), ARRAY[CAST(NULL AS STRING)], CAST(NULL AS ARRAY<INT>),"
                        + "   CAST(NULL AS ARRAY<ROW<x INT, s STRING>>)))");
        assertThat(summary).contains("kafka-columnar[admitted: protobuf value]");
    }

    @Test
    void protobufMapsInFlinkEntryOrder() throws Exception {
        String summary = parity("protobuf_maps", 1, sinkDdl(
                "msi MAP<STRING, INT>, mls MAP<BIGINT, STRING>, mim MAP<INT, ROW<x INT, s STRING>>",
                "'format' = 'protobuf', 'protobuf.message-class-name' = '" + Maps3.class.getName() + "'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (MAP['zz', 1, 'a', CAST(NULL AS INT), 'mm', 3, 'b', 4],"
                        + "   MAP[CAST(10 AS BIGINT), 'x', -1, CAST(NULL AS STRING), 99999999999, 'y'],"
                        + "   MAP[1, ROW(1, 's'), 2, CAST(NULL AS ROW<x INT, s STRING>)]),"
                        + " (CAST(NULL AS MAP<STRING, INT>), CAST(NULL AS MAP<BIGINT, STRING>),"
                        + "   CAST(NULL AS MAP<INT, ROW<x INT, s STRING>>)))");
        assertThat(summary).contains("kafka-columnar[admitted: protobuf value]");
    }

    @Test
    void avroJsonEncodingFallsBackAndMatches() throws Exception {
        String summary = parity("avro_json", 1, sinkDdl("id INT NOT NULL, name STRING",
                "'format' = 'avro', 'avro.encoding' = 'json'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES (1, 'a'), (2, CAST(NULL AS STRING)))");
        assertThat(summary).contains("kafka-columnar[fallback: UNSUPPORTED_OPTION value.avro options: avro option"
                + " 'encoding' = 'json'");
    }

    @Test
    void avroConfluentSinkFailsExactlyAsFlinkWithoutConfluentsClient() {
        // Flink's avro-confluent factory (flink-avro-confluent-registry, on the test class path) needs Confluent's
        // registry client, which is not on Maven Central; kafka-columnar falls back to Flink's sink, which fails as
        // Flink's own does.
        String message = sameErrorAsFlink("avro_confluent", sinkDdl("id INT, name STRING",
                "'value.format' = 'avro-confluent', 'value.avro-confluent.url' = 'http://127.0.0.1:1'"),
                "INSERT INTO ${t}sink VALUES (1, 'a')");
        assertThat(message).contains("io.confluent.kafka.schemaregistry.client.SchemaRegistryClient");
    }

    /** Our connector or Flink's writing {@code columns} to topic {@code <prefix>out}, with more options. */
    private static String sinkDdl(String columns, String options) {
        return "CREATE TABLE ${t}sink (" + columns + ") WITH ('connector' = '${connector}', 'topic' = '${t}out',"
                + " 'properties.bootstrap.servers' = '${servers}', " + options + "${columnar})";
    }

    /** Parity at parallelism 1, records compared as sorted lists (VALUES with casts emit in varying order). */
    private static String parity(String name, int partitions, String ddl, String insert) throws Exception {
        return RUNS.parity(name, partitions, 1, ddl, insert, false, false);
    }

    /**
     * Parity of a changelog, records compared in partition order: its order is part of what it says ({@link
     * #AGGREGATE} is deterministic).
     */
    private static String changelogParity(String name, int partitions, String ddl, String insert) throws Exception {
        return RUNS.parity(name, partitions, 1, ddl, insert, false, true);
    }

    /**
     * Plans the INSERT with Flink's connector and with ours; both must fail with the same root cause, whose
     * message is returned.
     */
    private static String sameErrorAsFlink(String name, String ddl, String insert) {
        String prefix = SqlRuns.newPrefix(name);
        String stock = rootCauseMessage(failure("kafka", prefix, ddl, insert));
        String columnar = rootCauseMessage(failure("kafka-columnar", prefix, ddl, insert));
        assertThat(columnar).isEqualTo(stock);
        return stock;
    }

    private static Throwable failure(String connector, String prefix, String ddl, String insert) {
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        Throwable thrown = catchThrowable(() -> {
            RUNS.createTables(tEnv, ddl, connector, prefix);
            tEnv.explainSql(RUNS.fill(insert, connector, prefix));
        });
        assertThat(thrown).as("planning with %s", connector).isNotNull();
        return thrown;
    }

    private static String rootCauseMessage(Throwable thrown) {
        Throwable cause = thrown;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getName() + ": " + cause.getMessage();
    }
}
