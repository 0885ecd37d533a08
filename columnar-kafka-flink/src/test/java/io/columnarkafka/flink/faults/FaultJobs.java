package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.BrokerProcess;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.Collector;

/**
 * The job of the fault tests, with the columnar sink or with stock Flink's {@code KafkaSink} + Flink's JSON on
 * {@code RowData}: rate-limited batch indexes from a checkpointed generator, rows of {@link TestRows}, a sink of
 * parallelism 2. Same rows, same source, same Kafka settings; only the serialization path differs.
 */
final class FaultJobs {
    /** Where every fault test appends its result line (a Markdown table row), for docs/faults.md. */
    static final Path RESULTS = Path.of("target", "fault-results.md");

    /**
     * How long a broker or task manager may take to (re)start, or a job to first commit 2,000 rows, before a fault
     * test gives up: on the shared 2-core machine at load average 40-50 each took over 90 s.
     */
    static final Duration LOADED_MACHINE_TIMEOUT = Duration.ofMinutes(5);

    private FaultJobs() {}

    /** The sink under test. */
    enum SinkUnderTest {
        COLUMNAR,
        STOCK
    }

    /**
     * A local (MiniCluster) environment with 1 s checkpoints and a fixed-delay restart strategy generous enough for
     * a broker outage, running {@code batches} batches of {@code rows} rows at {@code batchesPerSecond} into
     * {@code topic}.
     */
    static StreamExecutionEnvironment job(SinkUnderTest sink, DeliveryGuarantee guarantee, String bootstrapServers,
                                          String topic, long batches, int rows, double batchesPerSecond) {
        return job(sink, guarantee, bootstrapServers, topic, batches, rows, batchesPerSecond,
                TransactionNamingStrategy.POOLING);
    }

    /** As {@link #job(SinkUnderTest, DeliveryGuarantee, String, String, long, int, double)}, with transactional ids
     * named by {@code naming}. */
    static StreamExecutionEnvironment job(SinkUnderTest sink, DeliveryGuarantee guarantee, String bootstrapServers,
                                          String topic, long batches, int rows, double batchesPerSecond,
                                          TransactionNamingStrategy naming) {
        StreamExecutionEnvironment env = SinkJobs.environment(30);
        build(env, sink, guarantee, bootstrapServers, topic, batches, rows, batchesPerSecond, Duration.ZERO, naming);
        return env;
    }

    /**
     * The job in {@code env}, with 1 s checkpoints; with a positive {@code snapshotDelay}, each checkpoint is held
     * in flight that long by a pass-through operator after the source.
     */
    static void build(StreamExecutionEnvironment env, SinkUnderTest sink, DeliveryGuarantee guarantee,
                      String bootstrapServers, String topic, long batches, int rows, double batchesPerSecond,
                      Duration snapshotDelay) {
        build(env, sink, guarantee, bootstrapServers, topic, batches, rows, batchesPerSecond, snapshotDelay,
                TransactionNamingStrategy.POOLING);
    }

    /** As {@link #build(StreamExecutionEnvironment, SinkUnderTest, DeliveryGuarantee, String, String, long, int,
     * double, Duration)}, with transactional ids named by {@code naming}. */
    static void build(StreamExecutionEnvironment env, SinkUnderTest sink, DeliveryGuarantee guarantee,
                      String bootstrapServers, String topic, long batches, int rows, double batchesPerSecond,
                      Duration snapshotDelay, TransactionNamingStrategy naming) {
        env.enableCheckpointing(1000);
        DataStream<Long> indexes = SinkJobs.batchIndexes(env, batches, batchesPerSecond, 2, "src");
        if (!snapshotDelay.isZero()) {
            indexes = indexes.map(new SlowSnapshot<>(snapshotDelay.toMillis())).setParallelism(2).uid("slow");
        }
        String prefix = topic + "-tx";
        switch (sink) {
            case COLUMNAR -> ColumnarKafkaSink.builder()
                    .setRowType(TestRows.ROW_TYPE)
                    .setValueFormat("json", Map.of())
                    .setTopic(topic)
                    .setBootstrapServers(bootstrapServers)
                    .setDeliveryGuarantee(guarantee)
                    .setTransactionalIdPrefix(prefix)
                    .setTransactionNamingStrategy(naming)
                    .setProperty("transaction.timeout.ms", "60000")
                    .setParallelism(2)
                    .setUidPrefix("sink")
                    .build()
                    .sinkTo(SinkJobs.batches(indexes, rows, "rows"));
            case STOCK -> {
                DataStream<RowData> rowData = indexes
                        .flatMap(new RowsOfBatch(rows), InternalTypeInfo.of(TestRows.ROW_TYPE))
                        .setParallelism(2)
                        .uid("rows")
                        .name("rows as RowData");
                rowData.sinkTo(stockSink(bootstrapServers, topic, guarantee, prefix, naming))
                        .setParallelism(2)
                        .uid("sink-kafka-sink")
                        .name("Kafka sink (Flink JSON)");
            }
        }
    }

    /**
     * Stock Flink's {@code KafkaSink} with Flink's JSON on {@code RowData} of {@link TestRows}, with the same Kafka
     * settings as the columnar sink of these tests (transactions time out after 60 s).
     */
    static KafkaSink<RowData> stockSink(String bootstrapServers, String topic, DeliveryGuarantee guarantee,
                                        String transactionalIdPrefix, TransactionNamingStrategy naming) {
        return KafkaSink.<RowData>builder()
                .setBootstrapServers(bootstrapServers)
                .setRecordSerializer(KafkaRecordSerializationSchema.<RowData>builder()
                        .setTopic(topic)
                        .setValueSerializationSchema(new JsonRowDataSerializationSchema(
                                TestRows.ROW_TYPE, TimestampFormat.SQL,
                                JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false))
                        .build())
                .setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .setTransactionNamingStrategy(naming)
                .setProperty("transaction.timeout.ms", "60000")
                .build();
    }

    /**
     * A standalone Flink cluster of separate JVMs on this module's test classpath (so jobs need no jar): a job
     * manager and two task managers of 2 slots, slots spread evenly, heartbeats 1 s / 10 s (Flink's defaults are
     * 10 s / 50 s), in a new temporary directory.
     */
    static FlinkCluster flinkCluster() throws IOException {
        List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of).toList();
        return FlinkCluster.builder(classpath, Files.createTempDirectory("columnar-kafka-flink-cluster-"))
                .taskManagers(2)
                .startupTimeout(LOADED_MACHINE_TIMEOUT)
                // Flink 2 packs slots into the fewest task managers unless told to spread them
                // (cluster.evenly-spread-out-slots is gone in Flink 2): spread, so a kill hits half the job.
                .config("taskmanager.load-balance.mode", "SLOTS")
                .config("heartbeat.interval", "1000")
                .config("heartbeat.timeout", "10000")
                // On a loaded machine, 10 s (the default ask timeout) is too short for the RPC actor system to
                // start: the process dies with "Could not create actor system".
                .config("pekko.ask.timeout", "60 s")
                .config("pekko.startup-timeout", "120 s")
                // The REST API caches checkpoint statistics for web.refresh-interval (3 s) by default: a checkpoint
                // in flight for a few hundred ms could stay unseen by awaitCheckpointInFlight for many intervals.
                .config("rest.cache.checkpoint-statistics.timeout", "100 ms")
                .start();
    }

    /** An environment submitting to {@code cluster} over REST, with a fixed-delay restart strategy 1 s apart. */
    static StreamExecutionEnvironment remoteEnvironment(FlinkCluster cluster, int restartAttempts) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restartAttempts);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        return StreamExecutionEnvironment.createRemoteEnvironment("localhost", cluster.restPort(), conf);
    }

    /** Once {@code job} has a checkpoint in flight, kills {@code victim} with SIGKILL; the fault on the timeline. */
    static OutputTimeline.Fault killWithCheckpointInFlight(FlinkCluster cluster, FlinkProcess victim, JobClient job,
                                                           OutputTimeline timeline) {
        cluster.awaitCheckpointInFlight(job.getJobID().toString(), Duration.ofSeconds(30));
        OutputTimeline.Fault kill = timeline.fault("kill -9 " + victim.name() + ", checkpoint in flight");
        victim.kill();
        return kill;
    }

    /** Stops the broker (SIGTERM) for {@code outage} and starts it again; the fault on the timeline, ended. */
    static OutputTimeline.Fault restartBroker(BrokerProcess broker, Duration outage, OutputTimeline timeline) {
        OutputTimeline.Fault fault = timeline.fault("broker stopped " + outage.toSeconds() + " s");
        broker.stop();
        sleep(outage);
        broker.start();
        fault.end();
        return fault;
    }

    /** Passes elements through; its snapshot sleeps, so each checkpoint stays in flight for a while. */
    static final class SlowSnapshot<T> implements MapFunction<T, T>, CheckpointedFunction {
        private static final long serialVersionUID = 1L;
        private final long millis;

        SlowSnapshot(long millis) {
            this.millis = millis;
        }

        @Override
        public T map(T value) {
            return value;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws InterruptedException {
            Thread.sleep(millis);
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}
    }

    /** Batch index to the rows of that batch as Flink RowData, the same rows {@code BatchOfRows} builds as Arrow. */
    static final class RowsOfBatch implements FlatMapFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        private final int rows;

        RowsOfBatch(int rows) {
            this.rows = rows;
        }

        @Override
        public void flatMap(Long batchIndex, Collector<RowData> out) {
            long first = batchIndex * rows;
            for (long id = first; id < first + rows; id++) {
                out.collect(TestRows.rowData(id));
            }
        }
    }

    /**
     * Runs a fault test on a submitted job: waits until 2,000 offsets are committed, lets {@code inject} break
     * something and mark the fault on the timeline, waits for the committed output to resume and for the job to
     * finish, then reads the topic {@code read_committed}, counts every id of {@code 0 .. rows-1} and records the
     * result row. Assertions on the report are the caller's.
     */
    static TopicReport runWithFault(JobClient job, String bootstrapServers, String topic, long rows,
                                    String scenario, SinkUnderTest sink, DeliveryGuarantee guarantee,
                                    Function<OutputTimeline, OutputTimeline.Fault> inject,
                                    Supplier<String> diagnostics) throws Exception {
        return runWithFault(job, bootstrapServers, topic, rows, scenario, sink.name(), guarantee, inject, diagnostics);
    }

    /** As {@link #runWithFault(JobClient, String, String, long, String, SinkUnderTest, DeliveryGuarantee, Function,
     * Supplier)}, with the sink named by {@code sinkLabel} in the result row (e.g. a SQL connector and its options). */
    static TopicReport runWithFault(JobClient job, String bootstrapServers, String topic, long rows,
                                    String scenario, String sinkLabel, DeliveryGuarantee guarantee,
                                    Function<OutputTimeline, OutputTimeline.Fault> inject,
                                    Supplier<String> diagnostics) throws Exception {
        try (OutputTimeline timeline = TopicVerifier.forTopic(bootstrapServers, topic).startTimeline()) {
            assertThat(timeline.awaitCommitted(2_000, LOADED_MACHINE_TIMEOUT))
                    .as("output flows before the fault\n%s", diagnostics.get()).isTrue();
            OutputTimeline.Fault fault = inject.apply(timeline);
            assertThat(timeline.awaitRecovery(fault, Duration.ofSeconds(180)))
                    .as("output resumes after the fault: %s", timeline.describe()).isPresent();
            job.getJobExecutionResult().get(5, TimeUnit.MINUTES);
            TopicReport report = TopicVerifier.forTopic(bootstrapServers, topic)
                    .awaitStableOffsets(Duration.ofSeconds(30))
                    .verifyIds(0, Math.toIntExact(rows), TestRows::idOf);
            record(scenario, sinkLabel, guarantee, report, timeline, fault);
            return report;
        }
    }

    /** Appends one result row to {@link #RESULTS} and prints it with the timeline. */
    private static void record(String scenario, String sinkLabel, DeliveryGuarantee guarantee, TopicReport report,
                       OutputTimeline timeline, OutputTimeline.Fault fault) {
        String row = String.format("| %s | %s | %s | %d | %d | %d | %s | %s | %d |%n",
                scenario, sinkLabel, guarantee, report.expectedCount(), report.missingCount(), report.duplicateCount(),
                timeline.recovery(fault).map(d -> Long.toString(d.toMillis())).orElse("never"),
                timeline.resumeAfterEnd(fault).map(d -> Long.toString(d.toMillis())).orElse("-"),
                timeline.longestStall().toMillis());
        System.out.println(row + timeline.describe());
        appendResult(row);
    }

    /** Appends a result row (a Markdown table row ending in a newline) to {@link #RESULTS}. */
    static void appendResult(String row) {
        try {
            Files.createDirectories(RESULTS.getParent());
            Files.writeString(RESULTS, row, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sleeps, failing the test if interrupted. */
    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
