package io.columnarkafka.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columnar planner stage as a user deploys it (docs/planner.md, "Deployment: swap the planner jar"): a standalone
 * cluster and the SQL client's embedded mode on a lib/ whose planner loader is swapped for Flink's planner jar, the
 * shaded connector jar given with {@code -j}, the stage asked for with the session option. Nexmark events
 * in a topic; q1 (columnar from scan to sink), a count per bidder (a columnar scan and calc, the edge to Flink's
 * group aggregate, the columnar row sink into {@code upsert-kafka-columnar}) and a count per auction in hopping
 * event-time windows (the scan's watermark, the vectorised local window aggregate, Flink's global one) run through
 * the stage's plan and, as the oracle, through Flink's own connectors in the same session, all {@code exactly-once};
 * the results read back {@code read_committed} must be equal.
 */
class PlannerStageClusterIT {
    private static final int EVENTS = 20_000;
    private static final int PARTITIONS = 2;
    private static final String INPUT = "nexmark_events";

    private static KafkaBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void fillTheInput() {
        broker = KafkaBroker.start();
        broker.createTopic(INPUT, PARTITIONS);
        NexmarkTopic.fill(broker.bootstrapServers(), INPUT, PARTITIONS,
                new NexmarkGenerator(NexmarkConfig.defaults(11)), EVENTS);
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theSwappedLibHasThePlannerAndNoProjectKafkaOrArrowClasses() throws Exception {
        FlinkLib swapped = FlinkLib.fromBuild().withPlannerSwapped();
        assertThat(swapped.entriesStartingWith(FlinkLib.NOT_IN_FLINK)).isEmpty();
        assertThat(swapped.entriesStartingWith(List.of("org/apache/flink/table/planner/delegation/PlannerBase.class")))
                .hasSize(1);
        // the loader's jar carries the planner as a nested jar, which it loads in a class loader of its own
        assertThat(FlinkLib.fromBuild().entriesStartingWith(List.of("flink-table-planner.jar"))).hasSize(1);
        assertThat(swapped.entriesStartingWith(List.of("flink-table-planner.jar"))).isEmpty();
    }

    /**
     * With {@code -j}: the jar's classes, the stage's among them, in the session's class loader (the case that
     * needs the context class loader; the jar in lib/ passed before that fix, and is left to {@link
     * SqlConnectorClusterIT}'s connectors, as each run here costs a cluster).
     */
    @Test
    void theStagePlansAndRunsTheQueriesOnAStandaloneCluster() throws Exception {
        Deployment deployment = Deployment.SQL_CLIENT_J;
        Path jar = FlinkLib.connectorJar();
        String q1 = "q1_" + deployment.name().toLowerCase();
        String counts = "counts_" + deployment.name().toLowerCase();
        String windows = "windows_" + deployment.name().toLowerCase();
        for (String topic : List.of(q1, q1 + "_stock", counts, counts + "_stock", windows, windows + "_stock")) {
            broker.createTopic(topic, PARTITIONS);
        }
        String columns = NexmarkGenerator.EVENT_TYPE.getFields().stream()
                .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                .collect(Collectors.joining(", "));
        try (FlinkCluster cluster = FlinkCluster.builder(
                FlinkLib.fromBuild().withPlannerSwapped().classpath(deployment.inLib(jar)), dir.resolve("flink"))
                .start()) {
            String output = SqlClientRun.run(cluster, dir, "planner-stage-it.sql", Map.of("nexmark_columns", columns,
                    "input", INPUT, "q1_topic", q1, "counts_topic", counts, "windows_topic", windows,
                    "servers", broker.bootstrapServers()),
                    deployment.clientArgs(jar), "planner-" + deployment.name().toLowerCase());

            // The stage planned both queries (not the connectors' own columnar edges under Flink's plan): its scan
            // admitted, q1 columnar to the sink, the count's rows handed to Flink's aggregate at the edge.
            assertThat(output).doesNotContain("is not installed").contains("decode=[admitted: json value")
                    .contains("ColumnarCalc(").contains("ColumnarSink(").contains("ArrowToRows(")
                    .contains("GroupAggregate(").contains("ColumnarRowSink(")
                    .contains("ColumnarLocalWindowAggregate(").contains("local=[vectorised]")
                    .contains("GlobalWindowAggregate(");

            List<byte[]> q1Stock = CommittedOutput.values(broker, q1 + "_stock");
            assertThat(q1Stock).as("stock q1 writes every bid").hasSize(EVENTS * 46 / 50);
            TopicReport q1Columnar = TopicVerifier.forTopic(broker, q1).readCommitted().verify(q1Stock);
            assertThat(q1Columnar.isExactlyOnce()).as(q1Columnar.verdict()).isTrue();

            Map<String, String> countsStock = CommittedOutput.finalValuePerKey(broker, counts + "_stock");
            assertThat(countsStock).as("bidders").hasSizeGreaterThan(100);
            assertThat(CommittedOutput.finalValuePerKey(broker, counts)).isEqualTo(countsStock);
            List<byte[]> windowsStock = CommittedOutput.values(broker, windows + "_stock");
            assertThat(windowsStock).as("stock's windows").hasSizeGreaterThan(100);
            TopicReport windowsColumnar = TopicVerifier.forTopic(broker, windows).readCommitted().verify(windowsStock);
            assertThat(windowsColumnar.isExactlyOnce()).as(windowsColumnar.verdict()).isTrue();
            for (String topic : List.of(q1, counts, windows)) {
                assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), topic,
                        Duration.ofSeconds(30))).as("transactions left open on " + topic).isEmpty();
            }
        }
    }
}
