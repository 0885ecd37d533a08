package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With {@code table.exec.uid.generation} {@code ALWAYS}, Flink gives every operator of a plan a uid, so a savepoint
 * maps to the same query planned again; the columnar plan must too, for every node the stage builds (scan, calcs,
 * edges, local aggregates, assigner, sink), and the operators that hold state take the uids Flink's plan gives
 * them, so a savepoint moves between the two plans (SqlSwitchBySavepointITCase runs it). Planning only, with a fresh
 * client JVM's node ids.
 */
class GeneratedUidsTest {
    /** Flink's operators that keep no state in a savepoint (a local aggregate flushes before the barrier). */
    private static final List<String> STATELESS_OPERATORS = List.of("Calc[", "MiniBatchAssigner[",
            "ConstraintEnforcer[", "LocalGroupAggregate[", "LocalWindowAggregate[", "StreamRecordTimestampInserter[",
            "WatermarkAssigner[");

    /** Queries with no event time, planned without the source's watermark, as the benchmark runs them. */
    private static final Set<String> STATELESS = Set.of("q0", "q1", "q2", "q10", "q14", "q21", "q22");

    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2", "q3", "q4", "q5", "q7", "q8", "q9", "q10", "q11", "q12", "q14", "q15",
            "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void everyOperatorOfTheColumnarPlanHasAUid(String query) {
        for (boolean miniBatch : new boolean[] {false, true}) {
            Map<String, String> uids = uids(query, true, miniBatch);
            assertThat(uids).as("%s, mini-batch %s", query, miniBatch).isNotEmpty()
                    .allSatisfy((operator, uid) -> assertThat(uid).as("%s: %s", query, operator).isNotNull());
            assertThat(Set.copyOf(uids.values())).as("%s, mini-batch %s: no uid twice", query, miniBatch)
                    .hasSameSizeAs(uids.values());
        }
    }

    /**
     * Every stateful operator of Flink's plan (the Kafka source, joins, aggregates, Rank, Deduplicate, windows, the
     * Kafka sink's writer and committer) has its uid in the columnar plan, so a savepoint of Flink's plan restores
     * into the columnar one and back; q12's Calc among them split (its {@code PROCTIME()} stays in Flink's half).
     */
    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2", "q3", "q4", "q5", "q7", "q8", "q9", "q10", "q11", "q12", "q14", "q15",
            "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void theColumnarPlanHasTheUidOfEveryStatefulOperatorOfFlinksPlan(String query) {
        for (boolean miniBatch : new boolean[] {false, true}) {
            Map<String, String> columnar = uids(query, true, miniBatch);
            assertThat(columnar.keySet()).as("%s: the scan is columnar", query)
                    .anyMatch(operator -> operator.contains("ColumnarScan"));
            Map<String, String> stateful = new TreeMap<>(uids(query, false, miniBatch));
            stateful.keySet().removeIf(operator -> STATELESS_OPERATORS.stream().anyMatch(operator::startsWith));
            assertThat(stateful.keySet()).as(query).anyMatch(operator -> operator.startsWith("Source: "))
                    .anyMatch(operator -> operator.contains(": Writer #"));
            assertThat(Set.copyOf(columnar.values())).as("%s, mini-batch %s: %s", query, miniBatch, stateful)
                    .containsAll(stateful.values());
        }
    }

    /**
     * Without the stage, {@code kafka-columnar} tables plan into Flink's nodes (the connector's columnar decode and
     * encode run inside the scan and the sink), so every uid Flink's plan has is in the connector's plan: a savepoint
     * of any of these queries moves between the two connectors.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2", "q3", "q4", "q5", "q7", "q8", "q9", "q10", "q11", "q12", "q14", "q15",
            "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void theConnectorsPlanHasEveryUidOfFlinksPlan(String query) {
        for (boolean miniBatch : new boolean[] {false, true}) {
            Map<String, String> stock = uids(query, "kafka", false, miniBatch);
            Map<String, String> connector = uids(query, "kafka-columnar", false, miniBatch);
            assertThat(Set.copyOf(connector.values())).as("%s, mini-batch %s", query, miniBatch)
                    .containsAll(stock.values());
        }
    }

    /**
     * With {@code sink.buffer-flush.*} Flink's upsert sink names its writer's uid after the connector ({@code
     * <n>_upsert-kafka}, its committer's from it): the columnar plan's writer, fed the batches of a columnar Calc
     * (q15's last Calc is the sink's input only where the stage takes it into the row sink) or an aggregate's rows,
     * and the connector's without the stage have those uids.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q4", "q17", "q18"})
    void withBufferFlushTheWriterHasFlinksUid(String query) {
        String bufferFlush = ", 'sink.buffer-flush.max-rows' = '7', 'sink.buffer-flush.interval' = '1 s'";
        List<String> writer = uids(query, "kafka", false, false, bufferFlush).values().stream()
                .filter(uid -> uid != null && uid.endsWith("_upsert-kafka")).toList();
        assertThat(writer).as("Flink's writer and committer").hasSize(2);
        for (boolean stage : new boolean[] {false, true}) {
            assertThat(Set.copyOf(uids(query, "kafka-columnar", stage, false, bufferFlush).values()))
                    .as("%s, stage %s", query, stage).containsAll(writer);
        }
    }

    /** Each operator of the query's plan, by name, and its uid (null if none), with generated uids. */
    private static Map<String, String> uids(String query, boolean columnar, boolean miniBatch) {
        return uids(query, columnar ? "kafka-columnar" : "kafka", columnar, miniBatch);
    }

    /** As above, the tables through {@code connector}, the stage installed or not. */
    private static Map<String, String> uids(String query, String connector, boolean stage, boolean miniBatch) {
        return uids(query, connector, stage, miniBatch, "");
    }

    /** As above, an upsert sink's options ending with {@code upsertOptions}. */
    private static Map<String, String> uids(String query, String connector, boolean stage, boolean miniBatch,
            String upsertOptions) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.getConfig().set("table.exec.uid.generation", "ALWAYS");
        if (stage) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        if (miniBatch) {
            NexmarkRuns.miniBatch(tEnv);
        }
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.executeSql(NexmarkRuns.sourceTable(connector, "localhost:1", "events", "g", !STATELESS.contains(query)));
        for (String view : NexmarkRuns.statements(NexmarkRuns.resource("views.sql"))) {
            tEnv.executeSql(view);
        }
        boolean upsert = NexmarkRuns.UPSERT_QUERIES.contains(query);
        String sink = NexmarkRuns.sinkOptions(upsert ? "upsert-" + connector : connector, "localhost:1", query, upsert)
                + (upsert ? upsertOptions : "");
        StreamStatementSet statements = tEnv.createStatementSet();
        for (String statement : NexmarkRuns.statements(NexmarkRuns.resource(query + ".sql").replace("${SINK}", sink))) {
            if (statement.toUpperCase().startsWith("INSERT")) {
                statements.addInsertSql(statement);
            } else {
                tEnv.executeSql(statement);
            }
        }
        ExecNodeContext.resetIdCounter();
        statements.attachAsDataStream();
        StreamGraph graph = env.getStreamGraph();
        Map<String, String> uids = new TreeMap<>();
        for (StreamNode node : graph.getStreamNodes()) {
            uids.put(node.getOperatorName() + " #" + node.getId(), node.getTransformationUID());
        }
        return uids;
    }
}
