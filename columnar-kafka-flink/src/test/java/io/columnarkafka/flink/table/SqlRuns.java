package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.common.header.Header;

/**
 * Runs the same SQL against Flink's connector and ours. A test writes its DDL and INSERT as templates:
 * {@code ${connector}} is replaced by {@code kafka} / {@code kafka-columnar} (or the upsert pair),
 * {@code ${t}} by a per-run name prefix (so each run has its own tables and topics), {@code ${servers}}
 * by the broker, {@code ${columnar}} by {@link #COLUMNAR_OPTIONS} and {@code ${columnar-scan}} by {@link
 * #COLUMNAR_SCAN_OPTIONS} for our connector only. Records are read back committed and rendered canonically for comparison.
 */
final class SqlRuns {
    private static final AtomicInteger RUN = new AtomicInteger();

    /** Small batches, so a few rows already span several batches and latency flushes. */
    static final String COLUMNAR_OPTIONS = ", 'columnar.batch-size' = '3', 'columnar.max-latency' = '50ms'";
    /** A scan's batches of at most 64 rows, far fewer than a fetch's (Kafka's default: up to 500 records). */
    static final String COLUMNAR_SCAN_OPTIONS = ", 'columnar.scan.max-batch-rows' = '64'";

    private final KafkaBrokerExtension kafka;

    /** Looks the broker up at each use: it starts after the test class's static fields are set. */
    SqlRuns(KafkaBrokerExtension kafka) {
        this.kafka = kafka;
    }

    static TableEnvironment tableEnvironment(int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        return StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    }

    /** A unique prefix for one run's tables and topics. */
    static String newPrefix(String name) {
        return name.replaceAll("[^a-zA-Z0-9]", "_") + "_" + RUN.incrementAndGet() + "_";
    }

    String fill(String template, String connector, String prefix) {
        return template
                .replace("${columnar}", connector.endsWith("columnar") ? COLUMNAR_OPTIONS : "")
                .replace("${columnar-scan}", connector.endsWith("columnar") ? COLUMNAR_SCAN_OPTIONS : "")
                .replace("${connector}", connector)
                .replace("${t}", prefix)
                .replace("${servers}", kafka.broker().bootstrapServers());
    }

    /** Creates {@code <prefix><topic>} for each topic, with {@code partitions} partitions. */
    void createTopics(String prefix, int partitions, List<String> topics) {
        for (String topic : topics) {
            kafka.broker().createTopic(prefix + topic, partitions);
        }
    }

    /** Executes the filled DDL template, whose statements are separated by lines {@code --}. */
    void createTables(TableEnvironment tEnv, String ddl, String connector, String prefix) {
        for (String statement : fill(ddl, connector, prefix).split("\n--\n")) {
            tEnv.executeSql(statement);
        }
    }

    /** Records of a topic in canonical form: partition, key, value, headers, and timestamp if asked. */
    List<String> records(String topic, boolean withTimestamp, boolean withPartition) {
        List<TopicRecord> records = TopicVerifier.forTopic(kafka.broker(), topic).keepRecords(true).read().records();
        List<TopicRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset));
        List<String> out = new ArrayList<>();
        for (TopicRecord r : sorted) {
            StringBuilder s = new StringBuilder();
            if (withPartition) {
                s.append("p").append(r.partition()).append(' ');
            }
            s.append("key=").append(text(r.key())).append(" value=").append(text(r.value()));
            if (!r.headers().isEmpty()) {
                s.append(" headers=[");
                for (Header h : r.headers()) {
                    s.append(h.key()).append(':').append(text(h.value())).append(';');
                }
                s.append(']');
            }
            if (withTimestamp) {
                s.append(" ts=").append(r.timestamp());
            }
            out.add(s.toString());
        }
        return out;
    }

    private static String text(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        String s = new String(bytes, StandardCharsets.UTF_8);
        return s.getBytes(StandardCharsets.UTF_8).length == bytes.length && java.util.Arrays.equals(
                s.getBytes(StandardCharsets.UTF_8), bytes) ? s : "b64:" + Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * Runs the templates once with Flink's connector and once with ours, each into its own topic(s)
     * {@code <prefix>out...} (or {@code <prefix><extraTopic>}) with {@code partitions} partitions, compares
     * the records (key, value, headers, partition, and timestamp if asked) and returns our sink's EXPLAIN
     * output. {@code ordered}: compare the records in partition order (for inputs whose order is
     * deterministic), else as a sorted list (a VALUES union or parallel source emits in varying order).
     */
    String parity(String name, int partitions, int parallelism, String ddl, String insert,
            boolean timestamps, boolean ordered, String... extraTopics) throws Exception {
        return parity(name, partitions, parallelism, false, ddl, insert, timestamps, ordered, extraTopics);
    }

    /** As {@link #parity(String, int, int, String, String, boolean, boolean, String...)}, in jobs with
     * {@code pipeline.object-reuse} set to {@code objectReuse}. */
    String parity(String name, int partitions, int parallelism, boolean objectReuse, String ddl, String insert,
            boolean timestamps, boolean ordered, String... extraTopics) throws Exception {
        String stock = newPrefix("s_" + name);
        String columnar = newPrefix("c_" + name);
        run("kafka", stock, partitions, parallelism, objectReuse, ddl, insert, extraTopics);
        String explain = run("kafka-columnar", columnar, partitions, parallelism, objectReuse, ddl, insert,
                extraTopics);
        for (String topic : topics(extraTopics)) {
            List<String> expected = new ArrayList<>(records(stock + topic, timestamps, true));
            List<String> actual = new ArrayList<>(records(columnar + topic, timestamps, true));
            if (!ordered) {
                Collections.sort(expected);
                Collections.sort(actual);
            }
            assertThat(expected).as("stock records of %s", topic).isNotEmpty();
            assertThat(actual).as("columnar vs stock records of %s", topic).isEqualTo(expected);
        }
        return explain;
    }

    private static List<String> topics(String... extraTopics) {
        return extraTopics.length == 0 ? List.of("out") : List.of(extraTopics);
    }

    /** One run of the templates with {@code connector}; returns the INSERT's JSON execution plan. */
    String run(String connector, String prefix, int partitions, int parallelism, String ddl,
            String insert, String... extraTopics) throws Exception {
        return run(connector, prefix, partitions, parallelism, false, ddl, insert, extraTopics);
    }

    private String run(String connector, String prefix, int partitions, int parallelism, boolean objectReuse,
            String ddl, String insert, String... extraTopics) throws Exception {
        createTopics(prefix, partitions, topics(extraTopics));
        TableEnvironment tEnv = tableEnvironment(parallelism);
        tEnv.getConfig().set(PipelineOptions.OBJECT_REUSE, objectReuse);
        createTables(tEnv, ddl, connector, prefix);
        String sql = fill(insert, connector, prefix);
        String explain = tEnv.explainSql(sql, ExplainDetail.JSON_EXECUTION_PLAN);
        tEnv.executeSql(sql).await();
        assertArrowMemoryReleased();
        return explain;
    }

    /** Every Arrow allocator closed with nothing outstanding once the job ended ({@link ArrowMemoryChecks}). */
    static void assertArrowMemoryReleased() throws InterruptedException {
        ArrowMemoryChecks.assertReleased();
    }

    static Map<String, String> pair(String stock, String columnar) {
        return Map.of("stock", stock, "columnar", columnar);
    }
}
