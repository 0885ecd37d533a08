package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.TransactionInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * EXACTLY_ONCE across a stop-with-savepoint and a restore at another parallelism: the job runs part of a
 * bounded input at one parallelism, stops with a savepoint, and finishes from it at another. Every row is
 * committed exactly once, every transactional id follows {@code <prefix>-<subtask>-<n>}, and none is
 * left open.
 */
class RescaleFromSavepointITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @ParameterizedTest(name = "{0} -> {1}, {2}")
    @CsvSource({"2, 3, INCREMENTING", "3, 1, POOLING"})
    void exactlyOnceSurvivesARestoreAtAnotherParallelism(
            int before, int after, TransactionNamingStrategy naming, @TempDir Path savepoints) throws Exception {
        String topic = "rescale-" + before + "-" + after;
        String prefix = "rescale-" + before + "-" + after + "-" + naming.name().toLowerCase();
        KAFKA.broker().createTopic(topic, 3);
        int batches = 150;
        int rows = 20;

        JobClient first = job(before, batches, rows, topic, prefix, naming, 8).executeAsync();
        ColumnarKafkaSinkITCase.waitFor(
                () -> TopicVerifier.forTopic(KAFKA.broker(), topic).read().totalRecords() >= 10L * rows,
                Duration.ofSeconds(60));
        String savepoint = first.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
        long committedAtSavepoint = TopicVerifier.forTopic(KAFKA.broker(), topic).read().totalRecords();
        assertThat(committedAtSavepoint).as("the first run stopped part-way").isLessThan((long) batches * rows);

        StreamExecutionEnvironment env = job(after, batches, rows, topic, prefix, naming, 100);
        StreamGraph graph = env.getStreamGraph();
        graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint, false));
        env.execute(graph);

        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), topic).verifyIds(0, batches * rows, TestRows::idOf);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();

        List<TransactionInfo> transactions = TopicVerifier.listTransactions(KAFKA.broker().bootstrapServers(), prefix);
        assertThat(transactions).as("no transaction left open").noneMatch(TransactionInfo::isOpen);
        Pattern id = Pattern.compile(Pattern.quote(prefix) + "-(\\d+)-(\\d+)");
        assertThat(transactions).allSatisfy(t -> assertThat(t.transactionalId()).matches(id));
        Map<Integer, Set<Long>> idsBySubtask = transactions.stream()
                .filter(t -> naming == TransactionNamingStrategy.POOLING
                        || t.state() == TransactionState.COMPLETE_COMMIT)
                .map(t -> id.matcher(t.transactionalId()))
                .filter(Matcher::matches)
                .collect(Collectors.groupingBy(
                        m -> Integer.parseInt(m.group(1)),
                        Collectors.mapping(m -> Long.parseLong(m.group(2)), Collectors.toCollection(TreeSet::new))));
        // INCREMENTING: the committed ids (recovery also initializes probe ids of higher subtask indexes to
        // abort lingering transactions; those stay Empty). POOLING: every id, whatever its last state, since
        // it re-initializes a committed id when it hands it out again, so its final state is often Empty
        // (exactly-once delivery itself is verified above). Subtasks without input (2 -> 3: the source has
        // two splits) write nothing; those with rows use ids under their own subtask index.
        assertThat(idsBySubtask.keySet())
                .as(transactions.toString())
                .hasSizeGreaterThanOrEqualTo(Math.min(before, after))
                .isSubsetOf(range(Math.max(before, after)));
        if (naming == TransactionNamingStrategy.INCREMENTING) {
            // A new transactional id per checkpoint.
            assertThat(idsBySubtask.get(0)).as(transactions.toString()).hasSizeGreaterThan(3);
        } else {
            // POOLING reuses a small pool of ids per subtask rather than one per checkpoint.
            assertThat(idsBySubtask.values())
                    .as(transactions.toString())
                    .allSatisfy(ids -> assertThat(ids).hasSizeLessThanOrEqualTo(3));
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    private static List<Integer> range(int n) {
        return java.util.stream.IntStream.range(0, n).boxed().toList();
    }

    private static StreamExecutionEnvironment job(
            int parallelism,
            int batches,
            int rows,
            String topic,
            String prefix,
            TransactionNamingStrategy naming,
            double batchesPerSecond) {
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(parallelism);
        env.enableCheckpointing(300);
        SinkJobs.exactlyOnceJsonSink(KAFKA.broker().bootstrapServers(), topic, prefix, naming)
                .setParallelism(parallelism)
                .setUidPrefix("rescale")
                .build()
                .sinkTo(SinkJobs.batches(
                        SinkJobs.batchIndexes(env, batches, batchesPerSecond, parallelism, "src"), rows, "rows"));
        return env;
    }
}
