package io.columnarkafka.flink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import java.time.Duration;

/** Shared pieces of the sink's integration tests. */
public final class SinkJobs {
    private SinkJobs() {}

    /** A MiniCluster of one task manager with {@code slots} slots. */
    public static MiniClusterExtension miniCluster(int slots) {
        return miniCluster(slots, new Configuration());
    }

    /** A MiniCluster of one task manager with {@code slots} slots and the given configuration. */
    public static MiniClusterExtension miniCluster(int slots, Configuration conf) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(slots)
                .setConfiguration(conf)
                .build());
    }

    /** An environment with a fixed-delay restart strategy ({@code attempts} restarts, 200 ms apart). */
    public static StreamExecutionEnvironment environment(int restartAttempts) {
        Configuration conf = new Configuration();
        if (restartAttempts > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restartAttempts);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        return StreamExecutionEnvironment.getExecutionEnvironment(conf);
    }

    /**
     * Batch indexes {@code 0 .. batches-1} from a checkpointed, rescalable generator source, at most
     * {@code batchesPerSecond} per second overall (0: unthrottled).
     */
    public static DataStream<Long> batchIndexes(
            StreamExecutionEnvironment env, long batches, double batchesPerSecond, int parallelism, String uid) {
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(
                index -> index,
                batches,
                batchesPerSecond > 0 ? RateLimiterStrategy.perSecond(batchesPerSecond) : RateLimiterStrategy.noOp(),
                Types.LONG);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "batch indexes")
                .setParallelism(parallelism)
                .uid(uid);
    }

    /** Arrow batches of {@link TestRows}, built right after the index source (same parallelism). */
    public static DataStream<ArrowBatch> batches(DataStream<Long> indexes, int rowsPerBatch, String uid) {
        return indexes.flatMap(new BatchOfRows(rowsPerBatch))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .setParallelism(indexes.getParallelism())
                .uid(uid)
                .name("rows to Arrow");
    }

    /**
     * A sink of {@link TestRows} as JSON values, EXACTLY_ONCE; transactions time out after 60 s, well
     * above the checkpoint intervals of the tests, so none is aborted for lasting too long.
     */
    public static ColumnarKafkaSink.Builder exactlyOnceJsonSink(
            String bootstrapServers, String topic, String transactionalIdPrefix, TransactionNamingStrategy naming) {
        return ColumnarKafkaSink.builder()
                .setRowType(TestRows.ROW_TYPE)
                .setValueFormat("json", Map.of())
                .setTopic(topic)
                .setBootstrapServers(bootstrapServers)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .setTransactionNamingStrategy(naming)
                .setProperty("transaction.timeout.ms", "60000");
    }

    /** Flink's JSON bytes of rows {@code 0 .. count-1}: the expected Kafka values. */
    public static List<byte[]> expectedJson(long count) {
        JsonRowDataSerializationSchema json = TestRows.flinkJson(TestRows.ROW_TYPE);
        List<byte[]> values = new ArrayList<>((int) count);
        for (long id = 0; id < count; id++) {
            values.add(json.serialize(TestRows.rowData(id)));
        }
        return values;
    }

    /**
     * After a job that failed on a bad batch sent right after a good one: {@code read_committed} readers see ids
     * {@code 0 .. n-1} for a whole number of batches of {@code rowsPerBatch} rows, no more than {@code maxRows},
     * and the rows of the failed checkpoint are in the log but aborted ({@code read_uncommitted} sees more).
     */
    public static void assertOnlyWholeBatchesCommitted(
            KafkaBroker broker, String topic, int rowsPerBatch, long maxRows) {
        TopicReport committed = TopicVerifier.forTopic(broker, topic).keepRecords(true).read();
        TopicReport uncommitted = TopicVerifier.forTopic(broker, topic).readUncommitted().read();
        List<Long> ids = committed.records().stream().map(r -> TestRows.idOf(r.value())).toList();
        assertThat(ids).as("a prefix of whole good batches").isEqualTo(LongStream.range(0, ids.size()).boxed().toList());
        assertThat(ids.size() % rowsPerBatch).isZero();
        assertThat((long) ids.size()).isLessThanOrEqualTo(maxRows);
        // The rows sent after the last completed checkpoint may or may not reach the broker before the failure
        // aborts their transaction (the producer sends asynchronously); whichever did stay invisible above.
        assertThat(uncommitted.totalRecords()).as("read_uncommitted sees at least the committed rows")
                .isGreaterThanOrEqualTo(committed.totalRecords());
    }
}
