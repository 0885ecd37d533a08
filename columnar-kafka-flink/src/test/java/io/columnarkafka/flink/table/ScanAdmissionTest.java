package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scan decision for each shape, from tables created with DDL (Flink's own factory validates the
 * options and builds the source the decision inspects), without running a job: each fallback reason a
 * SQL table can reach, and the admitted shapes. The runs of admitted and fallback scans against Flink's
 * source are in {@code KafkaColumnarScanParityITCase}.
 */
class ScanAdmissionTest {
    private static final String KAFKA = "'topic' = 'in', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset'";
    /** Protobuf messages of the format module's tests. */
    private static final String INNER3 = "io.columnarkafka.format.protobuf.testmsg.Inner3";
    private static final String SCALARS3 = "io.columnarkafka.format.protobuf.testmsg.Scalars3";

    private static Admission decide(String columns, String options) {
        return decide("kafka-columnar", columns, options);
    }

    private static Admission decide(String connector, String columns, String options) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TABLE t (" + columns + ") WITH ('connector' = '" + connector + "', " + options + ")");
        return ScanDecisions.of(tEnv, "t");
    }

    @Test
    void jsonValueAndKeyAreAdmittedWithTheirOptions() {
        assertThat(decide("id BIGINT, r ROW<x INT, m MAP<STRING, ARRAY<DECIMAL(38, 10)>>>, ts TIMESTAMP_LTZ(3),"
                + " ts0 TIMESTAMP(0)",
                KAFKA + ", 'format' = 'json', 'json.ignore-parse-errors' = 'true',"
                        + " 'json.timestamp-format.standard' = 'ISO-8601'").describe())
                .isEqualTo("admitted: json value");
        assertThat(decide("k_id BIGINT, v STRING", KAFKA + ", 'key.format' = 'json', 'key.fields' = 'k_id',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY',"
                + " 'value.json.fail-on-missing-field' = 'true'").describe())
                .isEqualTo("admitted: json value, json key");
    }

    @Test
    void scanBatchCapsShowInTheDecisionOnlyWhenSet() {
        assertThat(decide("v STRING", KAFKA + ", 'format' = 'raw', 'columnar.scan.max-batch-rows' = '256'")
                .describe()).isEqualTo("admitted: raw value, batches of at most 256 rows, 8 mb");
        assertThat(decide("v STRING", KAFKA + ", 'format' = 'raw', 'columnar.scan.max-batch-bytes' = '64kb'")
                .describe()).isEqualTo("admitted: raw value, batches of at most 4096 rows, 64 kb");
        assertThat(decide("v STRING", KAFKA + ", 'format' = 'raw', 'columnar.scan.max-batch-rows' = '4096',"
                + " 'columnar.scan.max-batch-bytes' = '8mb'").describe()).isEqualTo("admitted: raw value");
        assertThat(decide("v STRING", KAFKA + ", 'format' = 'raw', 'columnar.scan.max-batch-time' = '2 ms'")
                .describe()).isEqualTo("admitted: raw value, batches of at most 4096 rows, 8 mb, 2 ms a step");
        assertThat(decide("v STRING", KAFKA + ", 'format' = 'raw', 'columnar.scan.max-batch-time' = '0 ms'")
                .describe()).as("the default").isEqualTo("admitted: raw value");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "'columnar.scan.max-batch-rows' = '0'|'columnar.scan.max-batch-rows' must be positive, got 0",
        "'columnar.scan.max-batch-rows' = 'many'|Invalid columnar option for 'kafka-columnar'",
        "'columnar.scan.max-batch-bytes' = '0b'|'columnar.scan.max-batch-bytes' must be positive, got 0 bytes",
        "'columnar.scan.max-batch-bytes' = 'lots'|Invalid columnar option for 'kafka-columnar'",
        "'columnar.scan.max-batch-time' = '-1 ms'|Invalid columnar option for 'kafka-columnar'",
        "'columnar.scan.max-batch-time' = 'PT-1S'|negative duration is not supported",
        "'columnar.scan.max-batch-time' = 'soon'|Invalid columnar option for 'kafka-columnar'",
        "'columnar.scan.batch-rows' = '10'|Unsupported option 'columnar.scan.batch-rows' for 'kafka-columnar'"})
    void invalidScanBatchCapsAreRejectedByName(String option, String message) {
        assertThatThrownBy(() -> decide("v STRING", KAFKA + ", 'format' = 'raw', " + option))
                .hasStackTraceContaining(message);
    }

    @Test
    void rawValueAndKeyAreAdmittedWithTheirBoundedMode() {
        assertThat(decide("v STRING", KAFKA + ", 'format' = 'raw'").describe())
                .isEqualTo("admitted: raw value");
        assertThat(decide("k BYTES, v STRING", KAFKA + ", 'key.format' = 'raw', 'key.fields' = 'k',"
                + " 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY',"
                + " 'scan.bounded.mode' = 'latest-offset'").describe())
                .isEqualTo("admitted: raw value, raw key, bounded latest");
        assertThat(decide("v STRING", "'topic-pattern' = 'in.*', 'properties.bootstrap.servers' = 'x:1',"
                + " 'format' = 'raw', 'scan.bounded.mode' = 'timestamp', 'scan.bounded.timestamp-millis' = '5'")
                .describe()).isEqualTo("admitted: raw value, topic-pattern, bounded timestamp");
    }

    @Test
    void csvAndAvroValueAndKeyAreAdmittedWithTheirOptions() {
        assertThat(decide("id BIGINT, r ROW<x INT, y STRING>, tags ARRAY<DOUBLE>, ts TIMESTAMP_LTZ(3)",
                KAFKA + ", 'format' = 'csv', 'csv.field-delimiter' = '\\t', 'csv.ignore-parse-errors' = 'true',"
                        + " 'csv.allow-comments' = 'true', 'csv.null-literal' = 'n/a', 'csv.quote-character' = '''',"
                        + " 'csv.escape-character' = '\\', 'csv.array-element-delimiter' = '|'").describe())
                .isEqualTo("admitted: csv value");
        assertThat(decide("k_id BIGINT NOT NULL, id BIGINT, r ROW<x INT, a ARRAY<STRING>>, ts TIMESTAMP(6)",
                KAFKA + ", 'key.format' = 'csv', 'key.fields' = 'k_id', 'key.fields-prefix' = 'k_',"
                        + " 'value.format' = 'avro', 'value.fields-include' = 'EXCEPT_KEY',"
                        + " 'value.avro.timestamp_mapping.legacy' = 'false'").describe())
                .isEqualTo("admitted: avro value, csv key");
        assertThat(decide("k INT, v STRING", KAFKA + ", 'key.format' = 'avro', 'key.fields' = 'k',"
                + " 'value.format' = 'csv', 'value.csv.disable-quote-character' = 'true'").describe())
                .isEqualTo("admitted: csv value, avro key");
    }

    /**
     * avro-confluent is read natively with its registry's url, subject and Basic auth; a hand-written reader schema,
     * pass-through client properties, TLS options and 2.2.1's unknown {@code auto.register.schemas} fall back.
     */
    @Test
    void avroConfluentIsAdmittedUnlessAnOptionIsNotReproduced() {
        String registry = "'value.avro-confluent.url' = 'http://127.0.0.1:1'";
        String value = KAFKA + ", 'value.format' = 'avro-confluent', ";
        assertThat(decide("id BIGINT, r ROW<x INT, m MAP<STRING, ARRAY<DECIMAL(38, 10)>>>, ts TIMESTAMP(3)",
                value + registry + ", 'value.avro-confluent.subject' = 's',"
                        + " 'value.avro-confluent.basic-auth.credentials-source' = 'USER_INFO',"
                        + " 'value.avro-confluent.basic-auth.user-info' = 'u:p'").describe())
                .isEqualTo("admitted: avro-confluent value");
        assertThat(decide("k INT, v STRING", KAFKA + ", 'key.format' = 'avro-confluent', 'key.fields' = 'k',"
                + " 'key.avro-confluent.url' = 'http://127.0.0.1:1', 'value.format' = 'avro-confluent', " + registry)
                .describe()).isEqualTo("admitted: avro-confluent value, avro-confluent key");
        // a reader schema Flink's factory takes for the row type (a [T, "null"] union, a non-null default): admitted
        String schema = "{\"type\": \"record\", \"name\": \"r\", \"fields\": [{\"name\": \"v\","
                + " \"type\": [\"string\", \"null\"], \"default\": \"x\"}]}";
        assertThat(decide("v STRING", value + registry + ", 'value.avro-confluent.schema' = '" + schema + "'")
                .describe()).isEqualTo("admitted: avro-confluent value");
        // one Flink refuses (another type than the row's) falls back, so Flink's source fails as Flink does
        assertThat(decide("v INT", value + registry + ", 'value.avro-confluent.schema' = '" + schema + "'")
                .describe()).startsWith("fallback: ").contains("does not match the table schema");
        for (String option : List.of("'value.avro-confluent.properties.max.retries' = '1'",
                "'value.avro-confluent.ssl.truststore.location' = '/tmp/t.p12'")) {
            assertThat(decide("v STRING", value + registry + ", " + option).describe()).as(option)
                    .startsWith("fallback: UNSUPPORTED_OPTION value.avro-confluent options: ");
        }
        // a NOT NULL top-level row and legacy timestamps: TIMESTAMP(6) is refused by Flink's schema converter too
        assertThat(decide("ts TIMESTAMP(6)", value + registry).describe()).startsWith("fallback: UNSUPPORTED_TYPE");
    }

    /** avro maps are read in the entry order of Flink's HashMap, as value, nested and key columns. */
    @Test
    void avroMapAndMultisetColumnsAreAdmitted() {
        assertThat(decide("v STRING, m MAP<STRING, INT>, s MULTISET<STRING>, r ROW<a ARRAY<MAP<STRING, BYTES>>>",
                KAFKA + ", 'format' = 'avro'").describe()).isEqualTo("admitted: avro value");
        assertThat(decide("k MAP<STRING, STRING>, v STRING", KAFKA + ", 'key.format' = 'avro', 'key.fields' = 'k',"
                + " 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY'").describe())
                .isEqualTo("admitted: raw value, avro key");
    }

    /** json and csv carry every digit of the text at every precision (millis + nanos of the milli). */
    @Test
    void jsonAndCsvTimestampsOfEveryPrecisionAreAdmitted() {
        assertThat(decide("v STRING, t9 TIMESTAMP(9), t6 TIMESTAMP(6), r ROW<l TIMESTAMP_LTZ(7)>, t0 TIMESTAMP(0)",
                KAFKA + ", 'format' = 'json'").describe()).isEqualTo("admitted: json value");
        assertThat(decide("v STRING, a ARRAY<TIMESTAMP_LTZ(4)>, t TIMESTAMP(9)", KAFKA + ", 'format' = 'csv'")
                .describe()).isEqualTo("admitted: csv value");
        assertThat(decide("k TIMESTAMP(5), v STRING, t TIMESTAMP(6)", KAFKA + ", 'key.format' = 'csv',"
                + " 'key.fields' = 'k', 'value.format' = 'avro', 'value.fields-include' = 'EXCEPT_KEY',"
                + " 'value.avro.timestamp_mapping.legacy' = 'false'").describe())
                .isEqualTo("admitted: avro value, csv key");
    }

    @Test
    void recordMetadataIsAdmitted() {
        assertThat(decide("v STRING, o BIGINT METADATA FROM 'offset' VIRTUAL, p INT METADATA FROM 'partition',"
                + " t STRING METADATA FROM 'topic' VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',"
                + " tt STRING METADATA FROM 'timestamp-type' VIRTUAL, e INT METADATA FROM 'leader-epoch' VIRTUAL,"
                + " h MAP<STRING, BYTES> METADATA FROM 'headers' VIRTUAL",
                KAFKA + ", 'format' = 'raw'").describe())
                .isEqualTo("admitted: raw value, metadata offset partition topic timestamp timestamp-type leader-epoch"
                        + " headers");
    }

    @Test
    void aWatermarkIsAdmittedWhateverItsExpression() {
        assertThat(decide("v STRING, ts AS TO_TIMESTAMP('2020-01-02 03:04:05'), WATERMARK FOR ts AS ts",
                KAFKA + ", 'format' = 'raw'").describe()).isEqualTo("admitted: raw value, watermark");
        assertThat(decide("ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '0.5' SECOND",
                KAFKA + ", 'format' = 'json', 'scan.watermark.idle-timeout' = '1 s',"
                        + " 'scan.watermark.emit.strategy' = 'on-event'").describe())
                .isEqualTo("admitted: json value, watermark");
    }

    @Test
    void protobufIsAdmittedAsValueAndKeyFormat() {
        assertThat(decide("x INT, s STRING, l ARRAY<BIGINT>", KAFKA + ", 'format' = 'protobuf',"
                + " 'protobuf.message-class-name' = '" + INNER3 + "', 'protobuf.ignore-parse-errors' = 'true'")
                .describe()).isEqualTo("admitted: protobuf value");
        assertThat(decide("x INT, s STRING, v STRING", KAFKA + ", 'key.format' = 'protobuf',"
                + " 'key.protobuf.message-class-name' = '" + INNER3 + "', 'key.fields' = 'x;s',"
                + " 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY'").describe())
                .isEqualTo("admitted: raw value, protobuf key");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "e BIGINT| 'format' = 'protobuf', 'protobuf.message-class-name' = '" + SCALARS3 + "'|"
                + " UNSUPPORTED_TYPE column 'e': protobuf field columnarkafka.test3.Scalars3.e (ENUM) needs CHAR, VARCHAR"
                + " or INT, not BIGINT",
        "v STRING| 'format' = 'avro', 'avro.encoding' = 'json'| UNSUPPORTED_OPTION value.avro options: avro"
                + " option 'encoding' = 'json'",
        "v STRING, m MAP<STRING, INT>| 'format' = 'csv'| UNSUPPORTED_TYPE Unsupported type 'MAP<STRING, INT>'",
        "v STRING| 'format' = 'json', 'json.decode.json-parser.enabled' = 'false'| UNSUPPORTED_OPTION"
                + " value.json options: json option 'decode.json-parser.enabled' = false selects Flink's",
        "v STRING, ts TIMESTAMP(9)| 'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false'| UNSUPPORTED_TYPE"
                + " value column 'ts' TIMESTAMP(9): timestamp precision above 6",
        "id BIGINT, v STRING| 'format' = 'canal-json', 'canal-json.table.include' = 'orders_(x'| UNSUPPORTED_OPTION"
                + " value.canal-json options: invalid regular expression for canal-json option 'table.include'",
        "e BIGINT, v STRING| 'key.format' = 'protobuf', 'key.protobuf.message-class-name' = '" + SCALARS3 + "',"
                + " 'key.fields' = 'e', 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY'|"
                + " UNSUPPORTED_TYPE column 'e': protobuf field columnarkafka.test3.Scalars3.e (ENUM) needs CHAR"
    })
    void eachUnsupportedShapeFallsBackWithItsReason(String columns, String options, String reason) {
        assertThat(decide(columns, KAFKA + ", " + options).describe()).startsWith("fallback: " + reason);
    }

    private static Admission reading(String columns, String options, List<String> read, List<String> metadata) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TABLE t (" + columns + ") WITH ('connector' = 'kafka-columnar', " + KAFKA + ", "
                + options + ")");
        return ScanDecisions.reading(tEnv, "t", read, metadata);
    }

    /**
     * A json value column the decoder does not plan (a MAP with INT keys, which Flink's json refuses too: json plans
     * every type Flink's json reads, TIMESTAMP of every precision included) decides every query: Flink's {@code
     * kafka} source takes no projection, so its format converts every value column (and refuses this table), and
     * the json decoder checks every unread column as Flink converts it, under {@code ignore-parse-errors} too (a
     * value of the wrong shape leaves Flink's parser inside it, which can change the row).
     */
    @Test
    void anUnplannedJsonColumnDecidesEveryQuery() {
        String columns = "id BIGINT, name STRING, m MAP<INT, STRING>";
        String lenient = "'format' = 'json', 'json.ignore-parse-errors' = 'true'";
        assertThat(reading(columns, lenient, List.of("name", "id"), List.of()).describe())
                .startsWith("fallback: UNSUPPORTED_TYPE ").contains("'m'");
        assertThat(reading(columns, lenient, List.of("id", "m"), List.of()).describe())
                .startsWith("fallback: UNSUPPORTED_TYPE ").contains("'m'");
        assertThat(reading(columns, "'format' = 'json'", List.of("id"), List.of()).describe())
                .as("a bad m fails the record in Flink").startsWith("fallback: UNSUPPORTED_TYPE ").contains("'m'");
        assertThat(reading(columns, "'format' = 'json', 'json.fail-on-missing-field' = 'true'", List.of("id"),
                List.of()).describe()).as("a missing m fails the record in Flink").startsWith("fallback: UNSUPPORTED_TYPE");
    }

    /** csv and avro values are positional: Flink's deserializer reads every column, and so does the decoder. */
    @Test
    void anUnplannedCsvOrAvroColumnDecidesEveryQuery() {
        assertThat(reading("v STRING, ts TIMESTAMP(9)", "'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false'",
                List.of("v"), List.of()).describe())
                .startsWith("fallback: UNSUPPORTED_TYPE value column 'ts' TIMESTAMP(9): timestamp precision above 6");
        assertThat(reading("v STRING, m MAP<STRING, INT>", "'format' = 'csv'", List.of("v"), List.of()).describe())
                .startsWith("fallback: UNSUPPORTED_TYPE Unsupported type 'MAP<STRING, INT>'");
    }

    /**
     * An upsert scan is admitted (tombstones become DELETE rows in the columnar source), and its source takes no
     * projection push-down, as Flink's {@code upsert-kafka} source: a projection before the planner's {@code
     * ChangelogNormalize} would drop updates that are equal once projected. The planner stage keeps it a row scan.
     */
    @Test
    void upsertScansAreAdmittedWithoutProjectionPushDown() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TABLE t (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka-columnar', 'topic' = 'in', 'properties.bootstrap.servers' = 'x:1',"
                + " 'key.format' = 'raw', 'value.format' = 'json', 'value.fields-include' = 'ALL')");
        assertThat(ScanDecisions.of(tEnv, "t").describe()).isEqualTo("admitted: json value, raw key, upsert");
        DynamicTableSource source = ScanDecisions.source(tEnv, "t");
        assertThat(source).isNotInstanceOf(SupportsProjectionPushDown.class);
        assertThat(ColumnarTables.arrowScanAdmission(source).orElseThrow().describe())
                .startsWith("fallback: UNSUPPORTED_CHANGELOG upsert: Flink's ChangelogNormalize reads the scan's rows");
        assertThat(tEnv.explainSql("SELECT v FROM t")).as("no projection pushed").doesNotContain("project=[");
    }

    /**
     * A tombstone's row takes a key column the value holds too from the key: with key and value decoders laying
     * timestamps out differently (json: millis + nanos, avro: Arrow units) such a TIMESTAMP key column falls back.
     */
    @Test
    void anUpsertTimestampKeyColumnInAValueOfAnotherTimestampLayoutFallsBack() {
        String columns = "ts TIMESTAMP(3), v STRING, PRIMARY KEY (ts) NOT ENFORCED";
        String options = "'topic' = 'in', 'properties.bootstrap.servers' = 'x:1', 'key.format' = 'json',"
                + " 'value.format' = 'avro', 'value.fields-include' = ";
        assertThat(decide("upsert-kafka-columnar", columns, options + "'ALL'").describe()).isEqualTo(
                "fallback: UNSUPPORTED_TYPE key column 'ts' TIMESTAMP(3) NOT NULL: a tombstone's row takes it from the json key,"
                        + " other rows from the avro value, whose timestamp layouts differ");
        assertThat(decide("upsert-kafka-columnar", columns, options + "'EXCEPT_KEY'").describe())
                .isEqualTo("admitted: avro value, json key, upsert");
    }

    /**
     * An upsert scan is planned exactly as Flink plans {@code upsert-kafka}: whether {@code ChangelogNormalize} is
     * there, and the whole rows it compares (a projection pushed below it would make updates of unread columns
     * equal rows, which it drops).
     */
    @Test
    void upsertScansArePlannedAsFlinksUpsertKafka() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        for (String connector : List.of("upsert-kafka", "upsert-kafka-columnar")) {
            tEnv.executeSql("CREATE TABLE " + connector.replace('-', '_') + " (id BIGINT, name STRING, price DOUBLE,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = '" + connector + "', 'topic' = 'in',"
                    + " 'properties.bootstrap.servers' = 'x:1', 'key.format' = 'json', 'value.format' = 'json',"
                    + " 'value.fields-include' = 'EXCEPT_KEY')");
        }
        for (String query : List.of("SELECT id, name FROM %s", "SELECT name, COUNT(*) FROM %s GROUP BY name",
                "SELECT id, name FROM %s WHERE price > 3")) {
            String stock = optimizedPlan(tEnv.explainSql(query.formatted("upsert_kafka")));
            String columnar = optimizedPlan(tEnv.explainSql(query.formatted("upsert_kafka_columnar")));
            assertThat(columnar.replace("upsert_kafka_columnar", "upsert_kafka")).as(query).isEqualTo(stock);
        }
    }

    /**
     * debezium-json, ogg-json, canal-json and maxwell-json values are admitted with every option Flink's factory takes
     * for them (debezium-json's {@code schema-include} too, which only Flink's serializer refuses; the {@code
     * map-null-key.*} and {@code encode.*} options, which only serializers read; canal-json's {@code *.include}
     * patterns), with a key format, with TIMESTAMP of every precision (json's readers), and beside a column named like
     * the row-kind column; the source reports Flink's changelog mode for the format.
     */
    @Test
    void changelogJsonValuesAreAdmittedWithTheirOptionsAndFlinksChangelogMode() {
        assertThat(decide("id BIGINT, r ROW<x INT, m MAP<STRING, ARRAY<DECIMAL(38, 10)>>>, t9 TIMESTAMP(9)",
                KAFKA + ", 'format' = 'debezium-json', 'debezium-json.schema-include' = 'true',"
                        + " 'debezium-json.ignore-parse-errors' = 'true',"
                        + " 'debezium-json.timestamp-format.standard' = 'ISO-8601'").describe())
                .isEqualTo("admitted: debezium-json value");
        assertThat(decide("k_id BIGINT, v STRING", KAFKA + ", 'key.format' = 'json', 'key.fields' = 'k_id',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'ogg-json', 'value.fields-include' = 'EXCEPT_KEY',"
                + " 'value.ogg-json.ignore-parse-errors' = 'true'").describe())
                .isEqualTo("admitted: ogg-json value, json key");
        assertThat(decide("`$row_kind` STRING, v STRING", KAFKA + ", 'format' = 'debezium-json'").describe())
                .isEqualTo("admitted: debezium-json value");
        String serializerOnly = "'map-null-key.mode' = 'LITERAL', 'map-null-key.literal' = 'nil',"
                + " 'encode.decimal-as-plain-number' = 'true', 'encode.ignore-null-fields' = 'true'";
        assertThat(decide("id BIGINT, m MAP<STRING, DECIMAL(10, 2)>, t9 TIMESTAMP(9)", KAFKA + ", 'format' = 'canal-json',"
                + " 'canal-json.ignore-parse-errors' = 'true', 'canal-json.timestamp-format.standard' = 'ISO-8601',"
                + " 'canal-json.database.include' = 'inv.*', 'canal-json.table.include' = 'orders_\\d+|products', "
                + serializerOnly.replace("'map", "'canal-json.map").replace("'encode", "'canal-json.encode")).describe())
                .isEqualTo("admitted: canal-json value");
        assertThat(decide("k_id BIGINT, v STRING", KAFKA + ", 'key.format' = 'json', 'key.fields' = 'k_id',"
                + " 'key.fields-prefix' = 'k_', 'value.format' = 'maxwell-json', 'value.fields-include' = 'EXCEPT_KEY',"
                + " 'value.maxwell-json.ignore-parse-errors' = 'true', "
                + serializerOnly.replace("'map", "'value.maxwell-json.map").replace("'encode", "'value.maxwell-json.encode"))
                .describe()).isEqualTo("admitted: maxwell-json value, json key");
        for (String format : List.of("debezium-json", "ogg-json", "canal-json", "maxwell-json")) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            tEnv.executeSql("CREATE TABLE t (id BIGINT, v STRING) WITH ('connector' = 'kafka-columnar', " + KAFKA
                    + ", 'format' = '" + format + "')");
            ChangelogMode flinks = ((ScanTableSource) ScanDecisions.flinkSource(tEnv, "t")).getChangelogMode();
            assertThat(flinks.getContainedKinds()).as(format).containsExactlyInAnyOrder(RowKind.values());
            assertThat(((ScanTableSource) ScanDecisions.source(tEnv, "t")).getChangelogMode()).as(format)
                    .isEqualTo(flinks);
        }
    }

    /**
     * A format metadata column (debezium-json's {@code value.source.timestamp}, ogg-json's {@code value.table}, each
     * that Flink's canal-json and maxwell-json list) sends the whole table to Flink's source, whatever a query reads:
     * Flink's Kafka source takes no metadata projection, so its format converts every declared one.
     */
    @Test
    void aFormatMetadataColumnSendsTheWholeTableToFlinksSource() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql("CREATE TABLE t (id BIGINT, v STRING, s TIMESTAMP_LTZ(3) METADATA FROM 'value.source.timestamp'"
                + " VIRTUAL) WITH ('connector' = 'kafka-columnar', " + KAFKA + ", 'format' = 'debezium-json')");
        assertThat(ScanDecisions.source(tEnv, "t")).isInstanceOf(FallbackKafkaSource.class);
        assertThat(ScanDecisions.planned(tEnv, "t", tEnv.explainSql("SELECT id FROM t")).describe()).isEqualTo(
                "fallback: UNSUPPORTED_METADATA value.source.timestamp: format metadata of debezium-json, which Flink's"
                        + " format converts for every declared column; the columnar decoders produce none");
        assertThat(decide("id BIGINT, tb STRING METADATA FROM 'value.table' VIRTUAL",
                KAFKA + ", 'format' = 'ogg-json'").describe())
                .startsWith("fallback: UNSUPPORTED_METADATA value.table: format metadata of ogg-json");
        for (String format : List.of("canal-json", "maxwell-json")) {
            TableEnvironment flinks = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            flinks.executeSql("CREATE TABLE t (id BIGINT) WITH ('connector' = 'kafka-columnar', " + KAFKA
                    + ", 'format' = '" + format + "')");
            Map<String, DataType> readable =
                    ((SupportsReadingMetadata) ScanDecisions.flinkSource(flinks, "t")).listReadableMetadata();
            List<String> formatKeys = readable.keySet().stream().filter(key -> key.startsWith("value.")).toList();
            assertThat(formatKeys).as(format).hasSizeGreaterThanOrEqualTo(4).contains("value.database", "value.table");
            for (String key : formatKeys) {
                assertThat(decide("id BIGINT, m " + readable.get(key) + " METADATA FROM '" + key + "' VIRTUAL",
                        KAFKA + ", 'format' = '" + format + "'").describe()).as(key).startsWith(
                                "fallback: UNSUPPORTED_METADATA " + key + ": format metadata of " + format);
            }
        }
    }

    /**
     * A changelog value format's source takes no projection push-down, so its plans are Flink's {@code kafka} plans:
     * the Calc above the scan, {@code ChangelogNormalize} (a primary key with {@code
     * table.exec.source.cdc-events-duplicate}) over whole rows, {@code DropUpdateBefore} for a sink that takes no
     * UPDATE_BEFORE. The planner stage scans it as Arrow batches carrying each row's kind.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debezium-json", "canal-json", "maxwell-json"})
    void changelogJsonScansArePlannedAsFlinksKafka(String format) {
        for (boolean duplicates : List.of(false, true)) {
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
            tEnv.getConfig().set(ExecutionConfigOptions.TABLE_EXEC_SOURCE_CDC_EVENTS_DUPLICATE, duplicates);
            for (String connector : List.of("kafka", "kafka-columnar")) {
                tEnv.executeSql("CREATE TABLE " + connector.replace('-', '_') + " (id BIGINT, name STRING,"
                        + " price DOUBLE" + (duplicates ? ", PRIMARY KEY (id) NOT ENFORCED" : "") + ") WITH ("
                        + "'connector' = '" + connector + "', " + KAFKA + ", 'format' = '" + format + "')");
            }
            tEnv.executeSql("CREATE TABLE bh (id BIGINT, name STRING, price DOUBLE, PRIMARY KEY (id) NOT ENFORCED)"
                    + " WITH ('connector' = 'blackhole')");
            DynamicTableSource source = ScanDecisions.source(tEnv, "kafka_columnar");
            assertThat(source).isNotInstanceOf(SupportsProjectionPushDown.class);
            assertThat(ColumnarTables.arrowScanAdmission(source).orElseThrow().describe()).as("the stage's Arrow scan,"
                    + " each row's kind in the batches").startsWith("admitted: " + format + " value");
            for (String query : List.of("SELECT id, name FROM %s", "SELECT name, COUNT(*) FROM %s GROUP BY name",
                    "SELECT id, name FROM %s WHERE price > 3", "INSERT INTO bh SELECT * FROM %s")) {
                String stock = optimizedPlan(tEnv.explainSql(query.formatted("kafka")));
                String columnar = optimizedPlan(tEnv.explainSql(query.formatted("kafka_columnar")));
                assertThat(columnar.replace("kafka_columnar", "kafka")).as(query).isEqualTo(stock);
                if (duplicates) {
                    assertThat(stock).as(query).contains("ChangelogNormalize");
                }
            }
        }
    }

    private static String optimizedPlan(String explain) {
        return explain.substring(explain.indexOf("== Optimized Physical Plan =="),
                explain.indexOf("== Optimized Execution Plan =="));
    }

    /**
     * A table that falls back for every query is Flink's source with exactly its abilities; one decided per query
     * takes projection and metadata push-down, to know what the query reads.
     */
    @Test
    void aTableFallbackHasExactlyTheAbilitiesOfFlinksSource() {
        assertThat(SupportsReadingMetadata.class).isAssignableFrom(FallbackKafkaSource.class);
        assertThat(SupportsWatermarkPushDown.class).isAssignableFrom(FallbackKafkaSource.class);
        assertThat(SupportsProjectionPushDown.class.isAssignableFrom(FallbackKafkaSource.class)).isFalse();
        assertThat(SupportsProjectionPushDown.class).isAssignableFrom(ColumnarKafkaDynamicSource.Projecting.class);
    }
}
