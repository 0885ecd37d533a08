package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.sink.EncodeMetrics;
import io.columnarkafka.flink.sink.SendWindow;
import io.columnarkafka.flink.sink.SendWindowMetrics;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL encode operator registers the DataStream encode operator's metrics ({@link EncodeMetrics}), and the
 * operator that hands records to the writer its {@link SendWindowMetrics}, read here through a metric reporter of a
 * real MiniCluster and checked against the records in the topic.
 */
class SqlEncodeMetricsITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final String INSERT_TEN_ROWS = "INSERT INTO sink SELECT * FROM (VALUES (1, 'a'), (2, 'bb'),"
            + " (3, CAST(NULL AS STRING)), (4, 'dddd'), (5, 'e'), (6, 'ff'), (7, 'g'), (8, 'hh'), (9, 'i'),"
            + " (10, 'üñí')) AS v(id, name)";

    @Test
    void encodeMetricsCountBatchesRowsAndBytes() throws Exception {
        String topic = SqlRuns.newPrefix("metrics") + "out";
        KAFKA.broker().createTopic(topic, 1);
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        // Batches of 4 rows and a latency no run reaches: 10 rows are exactly 3 batches (4, 4, and 2 at the
        // end of input); the job takes no checkpoint.
        tEnv.executeSql("CREATE TABLE sink (id INT, name STRING) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + KAFKA.broker().bootstrapServers() + "', 'key.format' = 'json', 'key.fields' = 'id',"
                + " 'value.format' = 'json', 'columnar.batch-size' = '4', 'columnar.max-latency' = '1h')");
        TableResult result = tEnv.executeSql(INSERT_TEN_ROWS);
        JobID job = result.getJobClient().orElseThrow().getJobID();
        result.await();
        SqlRuns.assertArrowMemoryReleased();

        List<TopicRecord> records = TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read().records();
        assertThat(records).hasSize(10);
        Map<String, Metric> metrics = REPORTER.findMetrics(job, "ColumnarEncode");
        assertThat(count(metrics, EncodeMetrics.BATCHES)).isEqualTo(3);
        assertThat(count(metrics, EncodeMetrics.ROWS)).isEqualTo(10);
        assertThat(count(metrics, EncodeMetrics.KEY_BYTES))
                .isEqualTo(records.stream().mapToLong(r -> r.key().length).sum());
        assertThat(count(metrics, EncodeMetrics.VALUE_BYTES))
                .isEqualTo(records.stream().mapToLong(r -> r.value().length).sum());
        assertThat(count(metrics, EncodeMetrics.ENCODE_TIME_NANOS)).isPositive();
        assertThat(count(metrics, EncodeMetrics.DRAIN_TIME_NANOS)).isPositive();
        assertThat(metric(metrics, EncodeMetrics.BUFFER_CAPACITY))
                .isInstanceOfSatisfying(Gauge.class, gauge -> assertThat((Long) gauge.getValue()).isPositive());
    }

    @Test
    void theSendWindowReportsItsBoundAndEndsWithNothingInFlight() throws Exception {
        JobID windowed = insertTenRows("window", ""); // the default: a window of 10 ms
        Map<String, Metric> metrics = REPORTER.findMetrics(windowed, "SplitEncodedBatch");
        assertThat(gauge(metrics, SendWindowMetrics.BOUND_BYTES)).isGreaterThanOrEqualTo(SendWindow.FLOOR_BYTES);
        assertThat(gauge(metrics, SendWindowMetrics.IN_FLIGHT_BYTES)).as("the writer flushed at the end of input")
                .isZero();
        assertThat(gauge(metrics, SendWindowMetrics.WAIT_NANOS)).isNotNegative();

        JobID unbounded = insertTenRows("no-window", ", 'columnar.sink.max-queue-delay' = '0'");
        // The columnar splitter ran (its operator metrics exist), without the window's.
        assertThat(REPORTER.findMetrics(unbounded, "SplitEncodedBatch")).isNotEmpty();
        assertThat(REPORTER.findMetrics(unbounded, "SplitEncodedBatch").keySet())
                .noneMatch(name -> name.contains("sendWindow"));

        // Delivery guarantee none: the writer flushes at no checkpoint, so there is nothing for a window to shorten.
        JobID noGuarantee = insertTenRows("window-none", ", 'sink.delivery-guarantee' = 'none'");
        assertThat(REPORTER.findMetrics(noGuarantee, "SplitEncodedBatch")).isNotEmpty();
        assertThat(REPORTER.findMetrics(noGuarantee, "SplitEncodedBatch").keySet())
                .noneMatch(name -> name.contains("sendWindow"));
    }

    @Test
    void theWindowSeesEachBarrierBeforeTheWritersFlush() throws Exception {
        // 60 rows from datagen, which emits a second's rows at once (30) and sleeps out the second; checkpoints every
        // 100 ms; a producer that holds every record until a flush (linger 1 min). The rows of a burst are still
        // unacknowledged when the next barrier reaches the sending operator, and acknowledged by the writer's flush
        // after it. A hook run after the flush (a function's snapshotState) finds nothing in flight at any barrier:
        // no record is sent between the writer's flush and the snapshots.
        String topic = SqlRuns.newPrefix("barrier") + "out";
        KAFKA.broker().createTopic(topic, 1);
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        tEnv.getConfig().set("execution.checkpointing.interval", "100 ms");
        tEnv.executeSql("CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '30',"
                + " 'number-of-rows' = '60', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '60')");
        tEnv.executeSql("CREATE TABLE sink (id BIGINT) WITH ('connector' = 'kafka-columnar', 'topic' = '" + topic
                + "', 'properties.bootstrap.servers' = '" + KAFKA.broker().bootstrapServers() + "',"
                + " 'value.format' = 'json', 'sink.delivery-guarantee' = 'at-least-once',"
                + " 'properties.linger.ms' = '60000', 'columnar.batch-size' = '1')");
        TableResult result = tEnv.executeSql("INSERT INTO sink SELECT id FROM src");
        JobID job = result.getJobClient().orElseThrow().getJobID();
        result.await();
        SqlRuns.assertArrowMemoryReleased();
        List<TopicRecord> records = TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read().records();
        assertThat(records).hasSize(60);

        Map<String, Metric> metrics = REPORTER.findMetrics(job, "SplitEncodedBatch");
        HistogramStatistics backlog = histogram(metrics, SendWindowMetrics.BACKLOG_AT_BARRIER_BYTES);
        HistogramStatistics flush = histogram(metrics, SendWindowMetrics.FLUSH_NANOS);
        assertThat(backlog.size()).as("barriers seen in a 2 s run at 100 ms").isGreaterThanOrEqualTo(5);
        assertThat(flush.size()).isEqualTo(backlog.size());
        // The first burst (30 of the rows) waits in the producer for a barrier: at most every byte of the topic.
        long topicBytes = records.stream().mapToLong(r -> r.value().length).sum();
        assertThat(backlog.getMax()).as("most bytes in flight at a barrier").isPositive()
                .isLessThanOrEqualTo(topicBytes);
        assertThat(flush.getMin()).isPositive();
    }

    /** Ten rows through a {@code kafka-columnar} table with {@code extraOptions}; the job, ended, and its topic checked. */
    private static JobID insertTenRows(String name, String extraOptions) throws Exception {
        String topic = SqlRuns.newPrefix(name) + "out";
        KAFKA.broker().createTopic(topic, 1);
        TableEnvironment tEnv = SqlRuns.tableEnvironment(1);
        tEnv.executeSql("CREATE TABLE sink (id INT, name STRING) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + KAFKA.broker().bootstrapServers() + "', 'value.format' = 'json'" + extraOptions + ")");
        TableResult result = tEnv.executeSql(INSERT_TEN_ROWS);
        JobID job = result.getJobClient().orElseThrow().getJobID();
        result.await();
        SqlRuns.assertArrowMemoryReleased();
        assertThat(TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read().records()).hasSize(10);
        return job;
    }

    private static long gauge(Map<String, Metric> metrics, String name) {
        return (Long) ((Gauge<?>) metric(metrics, name)).getValue();
    }

    private static HistogramStatistics histogram(Map<String, Metric> metrics, String name) {
        return ((Histogram) metric(metrics, name)).getStatistics();
    }

    private static long count(Map<String, Metric> metrics, String name) {
        return ((Counter) metric(metrics, name)).getCount();
    }

    /** The one metric of that name in the encode operator's group. */
    private static Metric metric(Map<String, Metric> metrics, String name) {
        List<Metric> found = metrics.entrySet().stream()
                .filter(e -> e.getKey().endsWith("." + name))
                .map(Map.Entry::getValue)
                .toList();
        assertThat(found).as("metric %s in %s", name, metrics.keySet()).hasSize(1);
        return found.get(0);
    }
}
