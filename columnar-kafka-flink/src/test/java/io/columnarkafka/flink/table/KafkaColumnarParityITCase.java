package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same INSERT into a {@code kafka} table and into a {@code kafka-columnar} table with identical
 * options writes identical records; the columnar table says in EXPLAIN that it was admitted.
 */
class KafkaColumnarParityITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(4);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final SqlRuns RUNS = new SqlRuns(KAFKA);

    private static final String VALUES = "INSERT INTO ${t}sink SELECT * FROM (VALUES"
            + " (1, 'a', CAST(1.50 AS DECIMAL(10, 2)), TIMESTAMP '2020-01-02 03:04:05.120', ARRAY[1, 2], true),"
            + " (2, 'b\"\\\\c', CAST(100.00 AS DECIMAL(10, 2)), TIMESTAMP '2021-06-30 23:59:59', ARRAY[3], false),"
            + " (3, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(3)),"
            + "    CAST(NULL AS ARRAY<INT>), CAST(NULL AS BOOLEAN)),"
            + " (4, 'üñí 😀', CAST(-0.01 AS DECIMAL(10, 2)), TIMESTAMP '1970-01-01 00:00:00.001', ARRAY[CAST(NULL AS INT)], true)"
            + ") AS v(id, name, price, ts, tags, flag)";

    private static final String COLUMNS = "id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
            + " tags ARRAY<INT>, flag BOOLEAN";

    @Test
    void plainAppendJsonValue() throws Exception {
        String summary = parity("plain", 1, 1,
                sinkDdl(COLUMNS, "'format' = 'json'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: json value]");
    }


    @Test
    void keyedWithPrefixExceptKeyOnThreePartitions() throws Exception {
        String summary = parity("keyed_prefix", 3, 1,
                sinkDdl("k_id INT, k_name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
                        + " tags ARRAY<INT>, flag BOOLEAN",
                        "'key.format' = 'json', 'key.fields' = 'k_name;k_id', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.json.encode.ignore-null-fields' = 'true'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: json value, json key]");
    }

    @Test
    void keyedAllFieldsWithFixedPartitionerFromTwoSubtasks() throws Exception {
        String summary = parity("fixed", 3, 2,
                "CREATE TABLE ${t}src (id BIGINT, name STRING) WITH ('connector' = 'datagen',"
                        + " 'number-of-rows' = '40', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '40', 'fields.name.length' = '6')\n--\n"
                        + sinkDdl("id BIGINT, name STRING",
                                "'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'json',"
                                        + " 'sink.partitioner' = 'fixed'"),
                "INSERT INTO ${t}sink SELECT id, CAST(id * 7 AS STRING) FROM ${t}src", false);
        assertThat(summary).contains("kafka-columnar[admitted: json value, json key, fixed partitioner]");
    }

    @Test
    void roundRobinPartitioner() throws Exception {
        String summary = parity("round_robin", 1, 1,
                sinkDdl(COLUMNS, "'format' = 'json', 'sink.partitioner' = 'round-robin'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: json value]");
    }

    @Test
    void headersAndTimestampMetadata() throws Exception {
        String summary = parity("metadata", 1, 1,
                sinkDdl("id INT, name STRING, hs MAP<STRING, BYTES> METADATA FROM 'headers',"
                        + " `timestamp` TIMESTAMP_LTZ(3) METADATA",
                        "'format' = 'json'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (1, 'a', MAP['h1', X'0102', 'h2', CAST(NULL AS BYTES)], TO_TIMESTAMP_LTZ(1600000000123, 3)),"
                        + " (2, 'b', CAST(NULL AS MAP<STRING, BYTES>), TO_TIMESTAMP_LTZ(5, 3)),"
                        + " (3, 'c', MAP['x', X'', 'y', X'ff'], TO_TIMESTAMP_LTZ(1, 3)))", true);
        assertThat(summary).contains("admitted: json value, headers metadata, timestamp metadata");
    }

    @Test
    void topicListRoutingByTopicMetadata() throws Exception {
        String summary = parity("topic_list", 2, 1,
                "CREATE TABLE ${t}sink (id INT, name STRING, tp STRING METADATA FROM 'topic')"
                        + " WITH ('connector' = '${connector}', 'topic' = '${t}a;${t}b',"
                        + " 'properties.bootstrap.servers' = '${servers}', 'key.format' = 'json',"
                        + " 'key.fields' = 'id', 'value.format' = 'json'${columnar})",
                "INSERT INTO ${t}sink SELECT * FROM (VALUES (1, 'x', '${t}a'), (2, 'y', '${t}b'), (3, 'z', '${t}a'))",
                false, "a", "b");
        assertThat(summary).contains("topic metadata, topic list");
    }

    @Test
    void topicPatternRoutingByTopicMetadata() throws Exception {
        String summary = parity("topic_pattern", 1, 1,
                "CREATE TABLE ${t}sink (id INT, name STRING, tp STRING METADATA FROM 'topic')"
                        + " WITH ('connector' = '${connector}', 'topic-pattern' = '${t}[ab]',"
                        + " 'properties.bootstrap.servers' = '${servers}', 'format' = 'json'${columnar})",
                "INSERT INTO ${t}sink SELECT * FROM (VALUES (1, 'x', '${t}a'), (2, 'y', '${t}b'), (3, 'z', '${t}b'))",
                false, "a", "b");
        assertThat(summary).contains("topic metadata, topic-pattern");
    }

    @Test
    void upsertAggregateWithTombstones() throws Exception {
        String summary = parity("upsert", 1, 1, UPSERT_DDL.replace("${flush}", ""), UPSERT_INSERT, false, true);
        assertThat(summary).contains("upsert-kafka-columnar[admitted: json value, json key, upsert tombstones]");
    }

    @Test
    void upsertMapValuesWithTombstones() throws Exception {
        // Tombstone rows' values are not encoded at all (the value encoder gets a row selection), so maps
        // in upsert values are admitted; json and avro values, with Flink's upsert-kafka as the oracle.
        String ddl = UPSERT_DDL.replace("total INT", "totals MAP<STRING, INT>").replace("${flush}", "");
        String insert = UPSERT_INSERT.replace("SUM(amount) FROM", "MAP['sum', SUM(amount), 'max', MAX(amount)] FROM");
        assertThat(parity("upsert_map", 1, 1, ddl, insert, false, true))
                .contains("upsert-kafka-columnar[admitted: json value, json key, upsert tombstones]");
        assertThat(parity("upsert_map_avro", 1, 1, ddl.replace("'value.format' = 'json'", "'value.format' = 'avro'"),
                insert, false, true))
                .contains("upsert-kafka-columnar[admitted: avro value, json key, upsert tombstones]");
    }

    /*
     * Buffer-flush parity. Flink's reducing upsert sink flushes when its buffer holds max-rows keys, when
     * the interval timer fires, and at checkpoints and the end of input. A processing-time interval makes
     * the flush points timing-dependent, so these runs flush deterministically: the interval is one hour,
     * the jobs take seconds, take no checkpoint, and read a bounded sequence at parallelism 1, so both
     * connectors flush exactly at every max-rows-th distinct key and at the end of input. Records are
     * compared in partition order, so the flush order (Flink's HashMap order) is compared too: within one
     * JVM (the MiniCluster's) it is the same for both runs.
     */

    @Test
    void upsertBufferFlushMaxRowsOrderTombstonesAndTimestamps() throws Exception {
        // 194 keys, a table grown to 256 buckets by the first flush of 100 keys and kept by clear().
        String summary = parity("upsert_flush", 3, 1,
                bufferFlushDdl("user_id STRING, bucket INT", "user_id, bucket", "100", "json", "json"),
                BUFFER_FLUSH_INSERT, true, true);
        assertThat(summary).contains("upsert-kafka-columnar[admitted: json value, json key, timestamp metadata,"
                + " upsert tombstones, buffer-flush 100 rows / 3600000 ms]");
    }

    @Test
    void upsertBufferFlushSmallBufferAvroValueObjectReuse() throws Exception {
        // max-rows 7: many flushes of few keys, each read back in the 16-bucket order; object reuse on,
        // so the buffer must copy rows as Flink's does.
        String summary = RUNS.parity("upsert_flush_small", 2, 1, true,
                bufferFlushDdl("user_id STRING, bucket INT", "bucket, user_id", "7", "csv", "avro"),
                BUFFER_FLUSH_INSERT, true, true);
        assertThat(summary).contains("avro value, csv key, timestamp metadata, upsert tombstones, buffer-flush 7 rows");
    }

    @Test
    void upsertBufferFlushIntervalTimerFlushesWhileTheJobRuns() throws Exception {
        // One key per row, so the content does not depend on when the timer fires (compared as sets);
        // 40 rows at 20 per second with max-rows far above: only the 300 ms timer sends before the end,
        // so the producer's timestamps (no timestamp column) spread over the ~2 s run (one final flush: a few ms).
        String ddl = "CREATE TABLE ${t}src (id BIGINT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20',"
                + " 'number-of-rows' = '40', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '40', 'fields.v.kind' = 'sequence', 'fields.v.start' = '101',"
                + " 'fields.v.end' = '140')\n--\n"
                + "CREATE TABLE ${t}sink (id BIGINT, v INT, PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('connector' = 'upsert-${connector}', 'topic' = '${t}out',"
                + " 'properties.bootstrap.servers' = '${servers}', 'key.format' = 'json', 'value.format' = 'json',"
                + " 'sink.buffer-flush.max-rows' = '1000', 'sink.buffer-flush.interval' = '300ms'${columnar})";
        String stock = SqlRuns.newPrefix("s_upsert_interval");
        String columnar = SqlRuns.newPrefix("c_upsert_interval");
        String insert = "INSERT INTO ${t}sink SELECT id, v FROM ${t}src";
        RUNS.run("kafka", stock, 1, 1, ddl, insert);
        String summary = RUNS.run("kafka-columnar", columnar, 1, 1, ddl, insert);
        assertThat(summary).contains("buffer-flush 1000 rows / 300 ms");
        List<String> expected = new ArrayList<>(RUNS.records(stock + "out", false, true));
        List<String> actual = new ArrayList<>(RUNS.records(columnar + "out", false, true));
        Collections.sort(expected);
        Collections.sort(actual);
        assertThat(expected).hasSize(40);
        assertThat(actual).isEqualTo(expected);
        List<Long> timestamps = TopicVerifier.forTopic(KAFKA.broker(), columnar + "out").keepRecords(true).read()
                .records().stream().map(TopicRecord::timestamp).toList();
        assertThat(Collections.max(timestamps) - Collections.min(timestamps))
                .as("producer timestamps of timer flushes").isGreaterThanOrEqualTo(500);
    }

    /** An upsert table keyed by {@code keyColumns} with buffer-flush, written a timestamp per row. */
    private static String bufferFlushDdl(String keyColumns, String primaryKey, String maxRows, String keyFormat,
            String valueFormat) {
        return "CREATE TABLE ${t}src (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence',"
                + " 'fields.id.start' = '1', 'fields.id.end' = '1500')\n--\n"
                + "CREATE TABLE ${t}sink (" + keyColumns + ", cnt BIGINT, total BIGINT,"
                + " ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', PRIMARY KEY (" + primaryKey + ") NOT ENFORCED)"
                + " WITH ('connector' = 'upsert-${connector}', 'topic' = '${t}out',"
                + " 'properties.bootstrap.servers' = '${servers}', 'key.format' = '" + keyFormat + "',"
                + " 'value.format' = '" + valueFormat + "', 'sink.buffer-flush.max-rows' = '" + maxRows + "',"
                + " 'sink.buffer-flush.interval' = '1h'${columnar})";
    }

    /** 194 keys; a key whose total passes 40 is retracted (a tombstone), later ones come back. */
    private static final String BUFFER_FLUSH_INSERT = "INSERT INTO ${t}sink SELECT user_id, bucket, COUNT(*),"
            + " SUM(amount), TO_TIMESTAMP_LTZ(MAX(id) * 1000, 3) FROM (SELECT CONCAT('u', CAST(MOD(id * 7, 97)"
            + " AS STRING)) AS user_id, CAST(MOD(id, 2) AS INT) AS bucket, MOD(id, 23) AS amount, id"
            + " FROM ${t}src) GROUP BY user_id, bucket HAVING SUM(amount) < 40 OR COUNT(*) > 6";

    @Test
    void formatWithoutColumnarEncoderFallsBackAndMatches() throws Exception {
        String format = EncoderlessJsonFormatFactory.IDENTIFIER;
        String summary = parity("encoderless", 1, 1,
                "CREATE TABLE ${t}sink (" + COLUMNS + ") WITH ('connector' = '${connector}',"
                        + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}',"
                        + " 'format' = '" + format + "'${columnar})",
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[fallback: UNSUPPORTED_VALUE_FORMAT " + format
                + ": no columnar encoder]");
    }

    @Test
    void csvValueWithDelimiterAndNullLiteral() throws Exception {
        String summary = parity("csv", 1, 1,
                sinkDdl(COLUMNS, "'format' = 'csv',"
                        + " 'csv.field-delimiter' = '|', 'csv.null-literal' = 'N/A',"
                        + " 'csv.array-element-delimiter' = '+'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: csv value]");
    }

    @Test
    void rawKeyAndRawValueWithNullsAndOptions() throws Exception {
        // One partition: a null key is placed by Kafka's sticky partitioner, not deterministically.
        String summary = parity("raw", 1, 1,
                sinkDdl("id BIGINT, name STRING",
                        "'key.format' = 'raw', 'key.fields' = 'id', 'key.raw.endianness' = 'little-endian',"
                        + " 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.raw.charset' = 'UTF-16LE'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES (CAST(1 AS BIGINT), 'a'), (-2, CAST(NULL AS STRING)),"
                        + " (CAST(NULL AS BIGINT), 'üñí 😀'), (9223372036854775807, ''))",
                false);
        assertThat(summary).contains("kafka-columnar[admitted: raw value, raw key]");
    }

    /** A NOT NULL column and a NOT NULL row: Avro's schema has no union for them (no branch byte). */
    private static final String AVRO_COLUMNS = "id INT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
            + " tags ARRAY<INT>, flag BOOLEAN";

    @Test
    void avroValueLegacyTimestampMapping() throws Exception {
        String summary = parity("avro_legacy", 1, 1,
                sinkDdl(AVRO_COLUMNS, "'format' = 'avro'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: avro value]");
    }

    @Test
    void avroValueModernTimestampMapping() throws Exception {
        String summary = parity("avro_modern", 1, 1,
                sinkDdl("id INT NOT NULL, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(3),"
                        + " r ROW<a INT NOT NULL, b STRING>",
                        "'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false'"),
                "INSERT INTO ${t}sink SELECT * FROM (VALUES"
                        + " (1, TIMESTAMP '2020-01-02 03:04:05.123456', TO_TIMESTAMP_LTZ(1600000000123, 3), ROW(1, 'x')),"
                        + " (2, CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS TIMESTAMP_LTZ(3)), CAST(NULL AS ROW<a INT NOT NULL, b STRING>)),"
                        + " (3, TIMESTAMP '1969-12-31 23:59:59.999999', TO_TIMESTAMP_LTZ(-1, 3), ROW(-7, CAST(NULL AS STRING))))",
                false);
        assertThat(summary).contains("kafka-columnar[admitted: avro value]");
    }

    @Test
    void avroKeyWithPrefixAndCsvValueOnThreePartitions() throws Exception {
        String summary = parity("avro_key", 3, 1,
                sinkDdl("k_id INT NOT NULL, k_name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
                        + " tags ARRAY<INT>, flag BOOLEAN",
                        "'key.format' = 'avro', 'key.fields' = 'k_name;k_id', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'csv', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.csv.field-delimiter' = ';'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: csv value, avro key]");
    }

    @Test
    void upsertCsvKeyAvroValueWithTombstones() throws Exception {
        String summary = parity("upsert_avro", 1, 1,
                UPSERT_DDL.replace("'key.format' = 'json', 'value.format' = 'json'",
                        "'key.format' = 'csv', 'value.format' = 'avro'").replace("${flush}", ""),
                UPSERT_INSERT, false, true);
        assertThat(summary).contains("upsert-kafka-columnar[admitted: avro value, csv key, upsert tombstones]");
    }

    @Test
    void customPartitionerIsNativeAndMatches() throws Exception {
        // The partitioner reads the row, the key and value bytes and its open() arguments.
        String summary = parity("custom_partitioner", 3, 1,
                sinkDdl(COLUMNS, "'key.format' = 'json', 'key.fields' = 'name', 'value.format' = 'json',"
                        + " 'sink.partitioner' = '" + RowPartitioner.class.getName() + "'"),
                VALUES, false);
        assertThat(summary).contains("kafka-columnar[admitted: json value, json key, custom partitioner "
                + RowPartitioner.class.getName());
    }

    /** Flink's whole TIMESTAMP(7–9) range: year 0001 and 9999, pre-1970 nanoseconds, Arrow's 1677/2262 edges. */
    static final String NANOSECOND_VALUES = "VALUES"
            + " (1, TIMESTAMP '9999-12-31 23:59:59.999999999', TIMESTAMP '0001-01-01 00:00:00.000000001'),"
            + " (2, TIMESTAMP '0001-01-01 00:00:00', TIMESTAMP '1969-12-31 23:59:59.999999999'),"
            + " (3, TIMESTAMP '1677-09-21 00:12:43.145224191', TIMESTAMP '2262-04-11 23:47:16.854775808'),"
            + " (4, TIMESTAMP '1900-01-01 00:00:00.1', TIMESTAMP '2020-01-02 03:04:05.120000001'),"
            + " (5, CAST(NULL AS TIMESTAMP(9)), TIMESTAMP '1970-01-01 00:00:00')";

    /** A SELECT over {@link #NANOSECOND_VALUES} filling {@code id INT, t TIMESTAMP(9), l TIMESTAMP_LTZ(7), a ARRAY<TIMESTAMP(8)>}. */
    static final String NANOSECOND_INSERT = "INSERT INTO ${t}sink SELECT id, t, CAST(u AS TIMESTAMP_LTZ(7)),"
            + " ARRAY[CAST(u AS TIMESTAMP(8)), CAST(t AS TIMESTAMP(8))] FROM (" + NANOSECOND_VALUES + ") AS v(id, t, u)";

    static final String NANOSECOND_COLUMNS = "id INT, t TIMESTAMP(9), l TIMESTAMP_LTZ(7), a ARRAY<TIMESTAMP(8)>";

    @Test
    void nanosecondTimestampsOverFlinksWholeRangeAreNativeAndMatch() throws Exception {
        String summary = parity("nanos", 1, 1, sinkDdl(NANOSECOND_COLUMNS, "'format' = 'json'"),
                NANOSECOND_INSERT, false);
        assertThat(summary).contains("kafka-columnar[admitted: json value]");
        summary = parity("nanos_csv_key", 2, 1, sinkDdl(NANOSECOND_COLUMNS,
                        "'key.format' = 'csv', 'key.fields' = 't;id', 'value.format' = 'json',"
                        + " 'value.json.timestamp-format.standard' = 'ISO-8601'"),
                NANOSECOND_INSERT, false);
        assertThat(summary).contains("kafka-columnar[admitted: json value, csv key]");
    }

    @Test
    void upsertNanosecondTimestampsAreNativeAndMatch() throws Exception {
        String ddl = UPSERT_DDL.replace("total INT", "latest TIMESTAMP(9)").replace("${flush}", "");
        String insert = UPSERT_INSERT.replace("SUM(amount) FROM", "MAX(ts) FROM").replace("SELECT * FROM",
                "SELECT user_id, amount, CASE amount WHEN 1 THEN TIMESTAMP '0001-01-01 00:00:00.000000001'"
                + " WHEN 2 THEN TIMESTAMP '9999-12-31 23:59:59.999999999'"
                + " WHEN 3 THEN TIMESTAMP '1969-12-31 23:59:59.999999999'"
                + " ELSE TIMESTAMP '2262-04-11 23:47:16.854775808' END AS ts FROM");
        assertThat(parity("upsert_nanos", 1, 1, ddl, insert, false, true))
                .contains("upsert-kafka-columnar[admitted: json value, json key, upsert tombstones]");
    }

    /** Our connector or Flink's writing {@code columns} to topic {@code <prefix>out}, with more options. */
    private static String sinkDdl(String columns, String options) {
        return "CREATE TABLE ${t}sink (" + columns + ") WITH ('connector' = '${connector}', 'topic' = '${t}out',"
                + " 'properties.bootstrap.servers' = '${servers}', " + options + "${columnar})";
    }

    private static final String UPSERT_DDL = "CREATE TABLE ${t}sink (user_id STRING, cnt BIGINT, total INT,"
            + " PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'upsert-${connector}',"
            + " 'topic' = '${t}out', 'properties.bootstrap.servers' = '${servers}',"
            + " 'key.format' = 'json', 'value.format' = 'json'${flush}${columnar})";

    private static final String UPSERT_INSERT = "INSERT INTO ${t}sink SELECT user_id, COUNT(*), SUM(amount) FROM"
            + " (SELECT * FROM (VALUES ('u1', 1), ('u2', 2), ('u1', 3), ('u3', 4), ('u2', 5), ('u1', 6))"
            + " AS v(user_id, amount)) GROUP BY user_id HAVING SUM(amount) < 8";

    private static String parity(String name, int partitions, int parallelism, String ddl, String insert,
            boolean timestamps, String... extraTopics) throws Exception {
        return RUNS.parity(name, partitions, parallelism, ddl, insert, timestamps, false, extraTopics);
    }

    private static String parity(String name, int partitions, int parallelism, String ddl, String insert,
            boolean timestamps, boolean ordered, String... extraTopics) throws Exception {
        return RUNS.parity(name, partitions, parallelism, ddl, insert, timestamps, ordered, extraTopics);
    }
}
