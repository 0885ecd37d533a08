package io.columnarkafka.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connector jar as a user deploys it: a real standalone Flink cluster (job manager and task manager JVMs)
 * (the testkit's {@link FlinkCluster}) and the SQL client's embedded mode, each on nothing but a Flink
 * distribution's lib/ (Maven jars; see {@link FlinkLib}) and the testkit's one-class launcher, the shaded jar given
 * to the SQL client with {@code -j} or put in every process's lib/.
 * The script creates a {@code kafka-columnar} (exactly-once, json key and value) and an
 * {@code upsert-kafka-columnar} table on a real broker, EXPLAINs both INSERTs and runs them from a bounded
 * datagen on the cluster; the topics are read back {@code read_committed}.
 */
class SqlConnectorClusterIT {
    private static final int ROWS = 20_000;
    private static final int FORMAT_ROWS = 5_000;
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    private static KafkaBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theLibHasNoProjectKafkaOrArrowClasses() throws IOException {
        assertThat(FlinkLib.fromBuild().entriesStartingWith(FlinkLib.NOT_IN_FLINK)).isEmpty();
    }

    @Test
    void theConnectorJarRelocatesWhatFlinkDoesNotProvideAndRegistersBothFactories() throws IOException {
        try (JarFile jar = new JarFile(FlinkLib.connectorJar().toFile())) {
            List<String> unrelocated = jar.stream().map(e -> e.getName())
                    .filter(n -> n.endsWith(".class"))
                    .filter(n -> n.startsWith("org/apache/kafka/") || n.startsWith("org/apache/arrow/")
                            || n.startsWith("org/apache/avro/") || n.startsWith("com/fasterxml/")
                            || n.startsWith("com/google/flatbuffers/") || n.startsWith("org/apache/commons/codec/")
                            || n.startsWith("org/slf4j/") || n.startsWith("org/apache/logging/")
                            || n.startsWith("META-INF/versions/"))
                    .limit(5).toList();
            assertThat(unrelocated).isEmpty();
            String factories;
            try (InputStream in = jar.getInputStream(jar.getEntry("META-INF/services/org.apache.flink.table.factories.Factory"))) {
                factories = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(factories).contains("io.columnarkafka.flink.table.KafkaColumnarTableFactory",
                    "io.columnarkafka.flink.table.UpsertKafkaColumnarTableFactory",
                    "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory",
                    "org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory");
        }
    }

    @ParameterizedTest
    @EnumSource(Deployment.class)
    void sqlClientWritesBothTablesOnAStandaloneCluster(Deployment deployment) throws Exception {
        FlinkLib lib = FlinkLib.fromBuild();
        Path jar = FlinkLib.connectorJar();
        String topic = "bids_" + deployment.name().toLowerCase();
        String upsertTopic = "bids_by_id_" + deployment.name().toLowerCase();
        long started = System.nanoTime();
        try (FlinkCluster cluster = FlinkCluster.builder(lib.classpath(deployment.inLib(jar)), dir.resolve("flink"))
                .start()) {
            lap(deployment + ": cluster started", started);
            broker.createTopic(topic, 2);
            broker.createTopic(upsertTopic, 2);
            String output = SqlClientRun.run(cluster, dir, "sql-client-it.sql", Map.of("rows", String.valueOf(ROWS),
                    "topic", topic, "upsert_topic", upsertTopic, "servers", broker.bootstrapServers()),
                    deployment.clientArgs(jar), deployment.name().toLowerCase());
            lap(deployment + ": SQL client finished", started);

            assertThat(output)
                    .contains("ColumnarEncode[kafka-columnar[admitted: json value, json key]]")
                    .contains("ColumnarEncode[upsert-kafka-columnar[admitted: json value, json key, upsert tombstones]]");

            TopicReport bids = TopicVerifier.forTopic(broker, topic).readCommitted().verifyIds(1, ROWS, this::idOf);
            assertThat(bids.isExactlyOnce()).as(bids.verdict()).isTrue();
            assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), topic, Duration.ofSeconds(30)))
                    .isEmpty();
            TopicReport upserts = TopicVerifier.forTopic(broker, upsertTopic).readCommitted()
                    .verifyIds(1, ROWS, this::idOf);
            assertThat(upserts.isExactlyOnce()).as(upserts.verdict()).isTrue();
            lap(deployment + ": topics verified", started);
        }
    }

    /**
     * The csv and avro formats through the jar (given with {@code -j}), Flink's avro format in lib/ as a user adds
     * it: the same rows written by {@code kafka-columnar} and by Flink's {@code kafka} must be the same records, and
     * the columnar-written topics read back by both connectors the same values.
     */
    @Test
    void csvAndAvroGoThroughTheJarAsThroughFlinksConnector() throws Exception {
        Path jar = FlinkLib.connectorJar();
        String topic = "formats";
        List<Path> avro = FlinkLib.avroFormat();
        try (FlinkCluster cluster = FlinkCluster.builder(FlinkLib.fromBuild().classpath(avro), dir.resolve("flink"))
                .start()) {
            for (String suffix : List.of("_csv", "_csv_stock", "_avro", "_avro_stock", "_decoded", "_decoded_stock")) {
                broker.createTopic(topic + suffix, 2);
            }
            String output = SqlClientRun.run(cluster, dir, "formats-it.sql", Map.of("rows",
                    String.valueOf(FORMAT_ROWS), "topic", topic, "servers", broker.bootstrapServers()),
                    Deployment.SQL_CLIENT_J.clientArgs(jar), "formats");

            assertThat(output).contains("ColumnarEncode[kafka-columnar[admitted: csv value]]")
                    .contains("ColumnarEncode[kafka-columnar[admitted: avro value]]")
                    // the scan's decision, which the connector logs as it builds the scan (the plan names it by
                    // the table)
                    .contains("csv_columnar reading [id, bidder, price, channel, hot, ts]: admitted: csv value")
                    .contains("avro_columnar reading [id, bidder, price, channel, hot, ts]: admitted: avro value");
            for (String written : List.of("_csv", "_avro", "_decoded")) {
                List<byte[]> stock = CommittedOutput.values(broker, topic + written + "_stock");
                assertThat(stock).as(written + " by Flink").hasSize(written.equals("_decoded") ? 2 * FORMAT_ROWS
                        : FORMAT_ROWS);
                TopicReport columnar = TopicVerifier.forTopic(broker, topic + written).readCommitted().verify(stock);
                assertThat(columnar.isExactlyOnce()).as(written + ": " + columnar.verdict()).isTrue();
            }
        }
    }

    private static void lap(String what, long started) {
        System.out.printf("%s after %.1f s%n", what, (System.nanoTime() - started) / 1e9);
    }

    private long idOf(byte[] value) {
        Matcher m = ID.matcher(new String(value, StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalArgumentException("no id in " + new String(value, StandardCharsets.UTF_8));
        }
        return Long.parseLong(m.group(1));
    }
}
