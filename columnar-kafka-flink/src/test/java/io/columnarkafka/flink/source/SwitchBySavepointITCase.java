package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.testing.JobOutput;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataDeserializationSchema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving a running job from stock Flink's Kafka connector to columnar-kafka, and back, through a savepoint: a
 * Kafka-to-Kafka copy of Nexmark bids, EXACTLY_ONCE with {@code POOLING} transactional ids, stopped part-way with a
 * savepoint by one connector and restored by the other with {@code allowNonRestoredState} off. The source's uid and
 * the sink's ({@code sinkTo(...).uid(...)} on the columnar sink) are the stock job's, so Flink hands the stock
 * {@code KafkaSource}'s splits and enumerator state, and the stock {@code KafkaSink}'s writer and committer state, to
 * the columnar job, which keeps both in the same connector's serializers (and the other way round). Every bid is in
 * the output exactly once, as Flink's own JSON deserializer and serializer make it, with no transaction left open.
 */
class SwitchBySavepointITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final String INPUT = "switch-bids-in";
    private static final int PARTITIONS = 2;
    private static final int BIDS = 4_000;
    /** Rows between two sleeps of the throttled run, which are the columnar source's batch size. */
    private static final int ROWS_PER_PAUSE = 50;
    /**
     * 300 ms every 50 rows: a subtask of the throttled run takes 12 s or more for its 2,000 bids, so none has
     * finished (which would fail the stop-with-savepoint) by the time the first results are committed.
     */
    private static final long PAUSE_MILLIS = 300;
    private static final String SOURCE_UID = "bids-source";
    private static final String SINK_UID = "bids-kafka-sink";

    /** Flink's JSON deserializer then serializer of every input record: what a copy job writes. */
    private static List<byte[]> expected;

    @BeforeAll
    static void fillInput() throws Exception {
        BidTopics.fill(KAFKA.broker(), INPUT, PARTITIONS, BIDS);
        DeserializationSchema<RowData> deserializer = flinkJsonDeserializer();
        deserializer.open(null); // open() only builds the ObjectMapper, for both schemas; neither reads the context
        SerializationSchema<RowData> serializer = flinkJsonSerializer();
        serializer.open(null);
        expected = new ArrayList<>();
        Set<String> distinct = new HashSet<>();
        for (TopicRecord record : TopicVerifier.forTopic(KAFKA.broker(), INPUT).keepRecords(true).read().records()) {
            byte[] value = serializer.serialize(deserializer.deserialize(record.value()));
            expected.add(value);
            distinct.add(new String(value, java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(expected).as("input bids").hasSize(BIDS);
        assertThat(distinct).as("every expected value is unique, so exactly-once is checkable").hasSize(BIDS);
    }

    @Test
    @Timeout(300)
    void aStockJobsSavepointRestoresIntoTheColumnarJob(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(Connector.STOCK, Connector.COLUMNAR, "switch-to-columnar", savepoints);
    }

    @Test
    @Timeout(300)
    void aColumnarJobsSavepointRestoresIntoTheStockJob(@TempDir Path savepoints) throws Exception {
        switchBySavepoint(Connector.COLUMNAR, Connector.STOCK, "switch-to-stock", savepoints);
    }

    /** Which Kafka connector a run's source and sink are. */
    private enum Connector { STOCK, COLUMNAR }

    /**
     * Runs the copy with {@code from}'s connector, throttled, stops it with a savepoint once results are committed,
     * restores the savepoint into {@code to}'s connector and lets the bounded job finish.
     */
    private static void switchBySavepoint(Connector from, Connector to, String name, Path savepoints)
            throws Exception {
        String output = name + "-out";
        KAFKA.broker().createTopic(output, PARTITIONS);
        StreamExecutionEnvironment first = environment();
        copy(first, from, output, name, true);
        JobClient running = first.executeAsync(name + ": " + from);
        String savepoint;
        try {
            JobOutput.awaitCommitted(running, KAFKA.broker(), output, 100, "the first run commits some results");
            savepoint = running.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get();
        } finally {
            JobOutput.cancelIfRunning(running);
        }
        long atSavepoint = TopicVerifier.forTopic(KAFKA.broker(), output).read().totalRecords();
        assertThat(atSavepoint).as("the first run stopped part-way").isBetween(100L, (long) BIDS - 1);

        StreamExecutionEnvironment second = environment();
        copy(second, to, output, name, false);
        StreamGraph graph = second.getStreamGraph();
        assertConnector(graph, to);
        // no state of the savepoint may be left behind: every operator state maps to the second job's operators
        graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint, false));
        JobClient restored = second.executeAsync(graph);
        try {
            JobOutput.awaitCommitted(restored, KAFKA.broker(), output, BIDS, "the restored run commits the rest");
            if (to == Connector.COLUMNAR) {
                restored.getJobExecutionResult().get(2, TimeUnit.MINUTES);
            } else {
                // Flink's bounded KafkaSource, restored, never finishes (FLINK-31006, docs/source.md "Restoring a
                // bounded source"; ColumnarKafkaSource's enumerator does): its readers wait for "no more splits"
                // after their stopping offsets, so the test ends it as a user would, with a last savepoint.
                restored.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);
            }
        } finally {
            JobOutput.cancelIfRunning(restored);
        }

        // a source that started again from its starting offsets instead of the savepoint's would write the bids
        // before the savepoint twice, a sink that lost the savepoint's transactions would miss some
        TopicReport committed = TopicVerifier.forTopic(KAFKA.broker(), output).verify(expected);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(KAFKA.broker().bootstrapServers(), name,
                Duration.ofSeconds(30)))
                .as("transactions left open after the switch").isEmpty();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    private static StreamExecutionEnvironment environment() {
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(PARTITIONS);
        env.enableCheckpointing(300);
        return env;
    }

    /** Bids from {@link #INPUT} to {@code output}, with the same uids and Kafka settings in both connectors. */
    private static void copy(StreamExecutionEnvironment env, Connector connector, String output,
                             String transactionalIdPrefix, boolean throttled) {
        switch (connector) {
            case STOCK -> {
                KafkaSource<RowData> source = KafkaSource.<RowData>builder()
                        .setBootstrapServers(KAFKA.broker().bootstrapServers())
                        .setTopics(INPUT)
                        .setGroupId(transactionalIdPrefix)
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setBounded(OffsetsInitializer.latest())
                        .setDeserializer(KafkaRecordDeserializationSchema.valueOnly(flinkJsonDeserializer()))
                        .build();
                DataStream<RowData> bids = env.fromSource(source, WatermarkStrategy.noWatermarks(), "bids")
                        .uid(SOURCE_UID);
                if (throttled) {
                    bids = bids.map(new RowThrottle()).returns(InternalTypeInfo.of(BidGenerator.BID_TYPE));
                }
                bids.sinkTo(KafkaSink.<RowData>builder()
                                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                                .setRecordSerializer(KafkaRecordSerializationSchema.<RowData>builder()
                                        .setTopic(output)
                                        .setValueSerializationSchema(flinkJsonSerializer())
                                        .build())
                                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                .setTransactionalIdPrefix(transactionalIdPrefix)
                                .setTransactionNamingStrategy(TransactionNamingStrategy.POOLING)
                                .setProperty("transaction.timeout.ms", "60000")
                                .build())
                        .uid(SINK_UID);
            }
            case COLUMNAR -> {
                ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
                        .setBootstrapServers(KAFKA.broker().bootstrapServers())
                        .setTopics(INPUT)
                        .setGroupId(transactionalIdPrefix)
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setBounded(OffsetsInitializer.latest())
                        .setRowType(BidGenerator.BID_TYPE)
                        .setValueFormat("json", Map.of())
                        .setMaxBatchRows(ROWS_PER_PAUSE)
                        .build();
                DataStream<ArrowBatch> bids = env.fromSource(source, WatermarkStrategy.noWatermarks(), "bids")
                        .uid(SOURCE_UID);
                if (throttled) {
                    bids = bids.map(new Throttle(PAUSE_MILLIS)).returns(ArrowBatchTypeInfo.INSTANCE);
                }
                ColumnarKafkaSink.builder()
                        .setRowType(BidGenerator.BID_TYPE)
                        .setValueFormat("json", Map.of())
                        .setTopic(output)
                        .setBootstrapServers(KAFKA.broker().bootstrapServers())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setTransactionalIdPrefix(transactionalIdPrefix)
                        .setTransactionNamingStrategy(TransactionNamingStrategy.POOLING)
                        .setProperty("transaction.timeout.ms", "60000")
                        .build()
                        .sinkTo(bids)
                        .uid(SINK_UID);
            }
        }
    }

    /** The columnar job carries Arrow batches from its source and pre-serialized records into its sink, no RowData. */
    private static void assertConnector(StreamGraph graph, Connector connector) {
        if (connector == Connector.COLUMNAR) {
            GraphSerializers.assertNoRowData(graph, "bids");
        } else {
            assertThat(GraphSerializers.of(graph)).noneMatch(s -> s.contains("Arrow") || s.contains("PreSerialized"));
        }
    }

    /** Flink's {@code json} format's deserializer of the bid row, with the format's defaults. */
    private static JsonRowDataDeserializationSchema flinkJsonDeserializer() {
        return new JsonRowDataDeserializationSchema(BidGenerator.BID_TYPE, InternalTypeInfo.of(BidGenerator.BID_TYPE),
                false, false, TimestampFormat.SQL);
    }

    /** Flink's {@code json} format's serializer of the bid row, with the format's defaults. */
    private static JsonRowDataSerializationSchema flinkJsonSerializer() {
        return new JsonRowDataSerializationSchema(BidGenerator.BID_TYPE, TimestampFormat.SQL,
                JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
    }

    /** The stock run's throttle: {@link #PAUSE_MILLIS} every {@link #ROWS_PER_PAUSE} rows, as the columnar run's. */
    private static final class RowThrottle implements MapFunction<RowData, RowData> {
        private int rows;

        @Override
        public RowData map(RowData row) throws InterruptedException {
            if (++rows % ROWS_PER_PAUSE == 0) {
                Thread.sleep(PAUSE_MILLIS);
            }
            return row;
        }
    }
}
