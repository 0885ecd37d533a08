package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowKafkaSink} against a real broker: bytes, metadata columns, partitioners, each delivery
 * guarantee, epochs, fencing and the broker's transaction limit. Every test's allocator closes at zero.
 */
class ArrowKafkaSinkITCase {
    private static KafkaBroker broker;
    private static int topics;
    private BufferAllocator allocator;

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

    @BeforeEach
    void allocate() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noArrowMemoryLeft() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static String newTopic(int partitions) {
        String topic = "client-" + (++topics);
        broker.createTopic(topic, partitions);
        return topic;
    }

    private static ArrowKafkaSinkConfig.Builder config(String topic) {
        return ArrowKafkaSinkConfig.builder().topic(topic).bootstrapServers(broker.bootstrapServers())
                .valueFormat("json", Map.of("timestamp-format.standard", "ISO-8601"))
                .producerProperty("linger.ms", "5");
    }

    @Test
    void atLeastOnceWritesExactlyTheBytesOfTheAdmittedEncoders() {
        String topic = newTopic(3);
        ArrowKafkaSinkConfig config = config(topic).keyFields("id").keyFormat("json", Map.of())
                .deliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).build();
        RecordingListener metrics = new RecordingListener();
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.ROW_TYPE, config, metrics);
        assertThat(sink.encoding()).isEqualTo("json value (JsonBatchEncoder), json key (JsonBatchEncoder)");
        List<byte[]> expectedValues = new ArrayList<>();
        List<byte[]> expectedKeys = new ArrayList<>();
        BatchEncoder values = Formats.encoder("json", Projection.all(IdBatches.ROW_TYPE),
                Map.of("timestamp-format.standard", "ISO-8601"));
        BatchEncoder keys = Formats.encoder("json", Projection.of(IdBatches.ROW_TYPE, 0), Map.of());
        sink.open();
        assertThat(sink.state()).isEqualTo(SinkState.RUNNING);
        long bytes = 0;
        for (int b = 0; b < 3; b++) {
            try (VectorSchemaRoot batch = IdBatches.batch(allocator, b * 100L, 100)) {
                WriteResult result = sink.writeBatch(batch);
                assertThat(result.records()).isEqualTo(100);
                bytes += result.bytes();
                addAll(values.encode(batch), expectedValues);
                addAll(keys.encode(batch), expectedKeys);
            }
        }
        sink.flush(Duration.ofSeconds(30));
        sink.close();
        assertThat(sink.state()).isEqualTo(SinkState.CLOSED);

        TopicReport report = TopicVerifier.forTopic(broker, topic).keepRecords(true).verify(expectedValues);
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        List<TopicRecord> records = report.records();
        for (TopicRecord record : records) {
            int id = (int) IdBatches.idOf(record.value());
            assertThat(record.key()).isEqualTo(expectedKeys.get(id));
        }
        assertThat(expectedValues.stream().mapToLong(v -> v.length).sum()
                + expectedKeys.stream().mapToLong(k -> k.length).sum()).isEqualTo(bytes);
        assertThat(metrics.records.get()).isEqualTo(300);
        assertThat(metrics.bytes.get()).isEqualTo(bytes);
        assertThat(metrics.encodeNanos.get()).isPositive();
        assertThat(metrics.sendNanos.get()).isPositive();
        assertThat(metrics.errors.get()).isZero();
    }

    @Test
    void timestampHeadersAndTopicComeFromColumnsAndAreNotInTheValue() {
        String first = newTopic(1);
        String second = newTopic(1);
        RowType type = RowTypes.parse("ROW<id BIGINT, destination STRING, at TIMESTAMP_LTZ(3),"
                + " hdrs MAP<STRING, BYTES>>");
        ArrowKafkaSinkConfig config = ArrowKafkaSinkConfig.builder().topic(first + ";" + second)
                .bootstrapServers(broker.bootstrapServers()).valueFormat("json", Map.of())
                .topicColumn("destination").timestampColumn("at").headersColumn("hdrs").build();
        ArrowKafkaSink sink = new ArrowKafkaSink(type, config, SinkListener.NONE);
        assertThat(sink.validate()).isEmpty();
        sink.open();
        try (RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(GenericRowData.of(1L, StringData.fromString(first),
                    TimestampData.fromEpochMillis(1_000L), new GenericMapData(Map.of(
                            StringData.fromString("trace"), "a".getBytes(StandardCharsets.UTF_8)))));
            writer.write(GenericRowData.of(2L, StringData.fromString(second),
                    TimestampData.fromEpochMillis(1_700_000_000_123L), null));
            sink.writeBatch(writer.finish());
            writer.reset();
            writer.write(GenericRowData.of(3L, StringData.fromString(first), null, null));
            writer.write(GenericRowData.of(4L, StringData.fromString(first), TimestampData.fromEpochMillis(-1L), null));
            assertThatThrownBy(() -> sink.writeBatch(writer.finish()))
                    .hasMessageContaining("row 1: the timestamp column 'at' holds -1 ms");
        }
        sink.flush(Duration.ofSeconds(30));
        sink.close();

        assertThat(TopicVerifier.forTopic(broker, first).read().totalRecords()).as("nothing of the failed batch").isOne();
        TopicRecord one = TopicVerifier.forTopic(broker, first).keepRecords(true).read().records().get(0);
        TopicRecord two = TopicVerifier.forTopic(broker, second).keepRecords(true).read().records().get(0);
        assertThat(one.valueAsString()).isEqualTo("{\"id\":1}");
        assertThat(one.timestamp()).isEqualTo(1_000L);
        assertThat(one.lastHeader("trace")).isEqualTo("a".getBytes(StandardCharsets.UTF_8));
        assertThat(two.valueAsString()).isEqualTo("{\"id\":2}");
        assertThat(two.timestamp()).isEqualTo(1_700_000_000_123L);
        assertThat(two.headers()).isEmpty();
    }

    @Test
    void aRowForATopicNotConfiguredFailsTheBatchBeforeAnythingIsSent() {
        String topic = newTopic(1);
        RowType type = RowTypes.parse("ROW<id BIGINT, destination STRING>");
        ArrowKafkaSink sink = new ArrowKafkaSink(type, ArrowKafkaSinkConfig.builder().topic(topic)
                .bootstrapServers(broker.bootstrapServers()).valueFormat("json", Map.of())
                .topicColumn("destination").deliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).build(),
                SinkListener.NONE);
        sink.open();
        try (RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            writer.write(GenericRowData.of(1L, StringData.fromString(topic)));
            writer.write(GenericRowData.of(2L, StringData.fromString("elsewhere")));
            assertThatThrownBy(() -> sink.writeBatch(writer.finish()))
                    .hasMessageContaining("row 1").hasMessageContaining("'elsewhere'");
        }
        sink.flush(Duration.ofSeconds(30));
        sink.close();
        assertThat(TopicVerifier.forTopic(broker, topic).read().totalRecords()).isZero();
    }

    @Test
    void roundRobinSpreadsAndFixedPinsPartitions() {
        String spread = newTopic(3);
        String pinned = newTopic(3);
        ArrowKafkaSink roundRobin = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(spread)
                .partitioner("round-robin").build(), SinkListener.NONE);
        ArrowKafkaSink fixed = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(pinned)
                .partitioner("fixed").writerIndex(5).build(), SinkListener.NONE);
        for (ArrowKafkaSink sink : List.of(roundRobin, fixed)) {
            sink.open();
            try (VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 30)) {
                sink.writeBatch(batch);
            }
            sink.flush(Duration.ofSeconds(30));
            sink.close();
        }
        assertThat(TopicVerifier.forTopic(broker, spread).read().recordsPerPartition())
                .isEqualTo(Map.of(0, 10L, 1, 10L, 2, 10L));
        assertThat(TopicVerifier.forTopic(broker, pinned).read().recordsPerPartition())
                .isEqualTo(Map.of(0, 0L, 1, 0L, 2, 30L));
    }

    @Test
    void theDefaultPartitionerIsKafkasMurmur2OfTheKeyBytes() {
        String topic = newTopic(4);
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(topic).keyFields("id")
                .keyFormat("json", Map.of()).build(), SinkListener.NONE);
        sink.open();
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 50)) {
            sink.writeBatch(batch);
        }
        sink.flush(Duration.ofSeconds(30));
        sink.close();
        for (TopicRecord record : TopicVerifier.forTopic(broker, topic).keepRecords(true).read().records()) {
            int expected = org.apache.kafka.common.utils.Utils.toPositive(
                    org.apache.kafka.common.utils.Utils.murmur2(record.key())) % 4;
            assertThat(record.partition()).as(record.keyAsString()).isEqualTo(expected);
        }
    }

    @Test
    void exactlyOnceShowsCommittedEpochsOnceAndNeverARolledBackOne() {
        String topic = newTopic(2);
        String prefix = "eo-" + topic;
        RecordingListener metrics = new RecordingListener();
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(topic)
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix(prefix)
                .producerProperty("transaction.timeout.ms", "60000").build(), metrics);
        assertThat(sink.validate()).isEmpty();
        sink.open();
        // epoch 0: committed; epoch 1: rolled back; epoch 2 prepared while 3 is written, then both committed
        writeEpoch(sink, 0, 0);
        sink.commitEpoch(sink.preCommit(0));
        writeEpoch(sink, 1, 100);
        sink.rollbackEpoch(1);
        sink.rollbackEpoch(1); // idempotent
        writeEpoch(sink, 2, 100);
        EpochDescriptor two = sink.preCommit(2);
        assertThat(two.transactionalId()).isEqualTo(prefix + "-0");
        assertThat(two.records()).isEqualTo(100);
        writeEpoch(sink, 3, 200);
        assertThatThrownBy(() -> sink.beginEpoch(4)).hasMessageContaining("epoch 3 is still being written");
        EpochDescriptor three = sink.preCommit(3);
        assertThatThrownBy(() -> sink.beginEpoch(4)).hasMessageContaining("epoch 2 is still prepared");
        sink.commitEpoch(two);
        sink.commitEpoch(three);
        sink.commitEpoch(three); // idempotent
        assertThatThrownBy(() -> sink.rollbackEpoch(3)).hasMessageContaining("is committed");
        assertThatThrownBy(() -> sink.beginEpoch(3)).hasMessageContaining("epochs must increase");
        assertThatThrownBy(() -> sink.preCommit(4)).hasMessageContaining("call beginEpoch(4) first");
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 1)) {
            assertThatThrownBy(() -> sink.writeBatch(batch)).hasMessageContaining("call beginEpoch(n) first");
        }
        writeEpoch(sink, 4, 300); // flushed and left open: close rolls it back
        sink.flush(Duration.ofSeconds(30));
        sink.close();

        TopicReport committed = TopicVerifier.forTopic(broker, topic).verifyIds(0, 300, IdBatches::idOf);
        assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
        // epoch 4 was flushed before its rollback, epoch 1 was not (its unsent records were dropped)
        assertThat(TopicVerifier.forTopic(broker, topic).readUncommitted().read().totalRecords())
                .as("the rolled-back epochs are on the broker, aborted").isBetween(400L, 500L);
        assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), prefix, Duration.ofSeconds(30)))
                .isEmpty();
        assertThat(broker.listTransactions()).filteredOn(t -> t.hasPrefix(prefix))
                .extracting(t -> t.transactionalId()).containsOnly(prefix + "-0", prefix + "-1");
        assertThat(metrics.committed).containsExactly(0L, 2L, 3L);
        assertThat(metrics.aborted).containsExactly(1L, 4L);
    }

    @Test
    void aPreparedEpochIsCommittedFromItsDescriptorByAnotherSinkBeforeItOpens() {
        String topic = newTopic(1);
        String prefix = "resume-" + topic;
        ArrowKafkaSinkConfig config = config(topic).deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix(prefix).build();
        ArrowKafkaSink crashed = new ArrowKafkaSink(IdBatches.ROW_TYPE, config, SinkListener.NONE);
        crashed.open();
        writeEpoch(crashed, 0, 0);
        EpochDescriptor prepared = EpochDescriptor.parse(crashed.preCommit(0).toString());
        writeEpoch(crashed, 1, 100); // never pre-committed: the next open() aborts it

        ArrowKafkaSink recovered = new ArrowKafkaSink(IdBatches.ROW_TYPE, config, SinkListener.NONE);
        recovered.commitEpoch(prepared);
        recovered.commitEpoch(prepared); // idempotent
        recovered.open();
        assertThatThrownBy(() -> crashed.commitEpoch(prepared)).isInstanceOf(SinkException.class)
                .as("the old producers are fenced");
        recovered.close();
        crashed.close();

        TopicReport report = TopicVerifier.forTopic(broker, topic).verifyIds(0, 100, IdBatches::idOf);
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(TopicVerifier.openTransactions(broker.bootstrapServers(), prefix)).isEmpty();
    }

    @Test
    void openAbortsTheTransactionsOfALargerEarlierPool() {
        String topic = newTopic(1);
        String prefix = "shrunk-" + topic;
        ArrowKafkaSink wide = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(topic)
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix(prefix)
                .transactionalIdPoolSize(3).build(), SinkListener.NONE);
        wide.open();
        wide.beginEpoch(2);
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 10)) {
            wide.writeBatch(batch);
        }
        wide.flush(Duration.ofSeconds(30)); // epoch 2 open on <prefix>-2, then the writer is abandoned
        assertThat(TopicVerifier.openTransactions(broker.bootstrapServers(), prefix))
                .extracting(t -> t.transactionalId()).containsExactly(prefix + "-2");

        ArrowKafkaSink narrow = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(topic)
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix(prefix).build(),
                SinkListener.NONE);
        narrow.open();
        assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), prefix, Duration.ofSeconds(30)))
                .isEmpty();
        narrow.close();
        wide.close();
        assertThat(TopicVerifier.forTopic(broker, topic).read().totalRecords()).isZero();
    }

    @Test
    void validateReportsATransactionTimeoutAboveTheBrokersMaximum() {
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.ROW_TYPE, config("any")
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix("too-long")
                .producerProperty("transaction.timeout.ms", Long.toString(Duration.ofHours(1).toMillis())).build(),
                SinkListener.NONE);
        assertThat(sink.validate()).singleElement().satisfies(problem -> {
            assertThat(problem.key()).isEqualTo("properties.transaction.timeout.ms");
            assertThat(problem.message()).contains("3600000 ms is above the broker's transaction.max.timeout.ms (900000 ms)");
        });
        assertThatThrownBy(sink::open).hasMessageContaining("transaction.max.timeout.ms");
    }

    @Test
    void aBatchOfTheWrongShapeFailsNamingTheColumnAndSendsNothing() {
        String topic = newTopic(1);
        ArrowKafkaSink sink = new ArrowKafkaSink(RowTypes.parse("ROW<id BIGINT, name INT, ts TIMESTAMP(3)>"),
                config(topic).build(), SinkListener.NONE);
        sink.open();
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 5)) {
            assertThatThrownBy(() -> sink.writeBatch(batch)).hasMessageContaining("name")
                    .hasMessageContaining("does not fit the sink's row type");
        }
        sink.close();
        assertThat(TopicVerifier.forTopic(broker, topic).read().totalRecords()).isZero();
    }

    /**
     * A batch with one record over the producer's {@code max.request.size} fails before any of its records is
     * sent, naming the topic, the row, the record's size as Kafka's producer counts it (Kafka's own estimate is
     * the oracle), the limit and the property; the epoch stays healthy: the batches around it commit once each
     * and nothing of the failed batch is in the log, committed or aborted. Kafka's producer would have rejected
     * that record alone in {@code send()}, after the batch's earlier rows, and left the transaction abortable only.
     */
    @Test
    void aBatchWithARecordOverMaxRequestSizeSendsNothingAndNamesTopicRowSizeAndLimit() {
        String topic = newTopic(1);
        String prefix = "eo-" + topic;
        RecordingListener metrics = new RecordingListener();
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.ROW_TYPE, config(topic).keyFields("id")
                .keyFormat("json", Map.of()).deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix(prefix).producerProperty("transaction.timeout.ms", "60000")
                .producerProperty("max.request.size", "20000").build(), metrics);
        sink.open();
        sink.beginEpoch(0);
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, 0, 50)) {
            sink.writeBatch(batch);
        }
        try (RowDataArrowWriter writer = new RowDataArrowWriter(IdBatches.ROW_TYPE, allocator)) {
            for (long id = 50; id < 100; id++) {
                writer.write(GenericRowData.of(id, StringData.fromString(id == 57 ? "x".repeat(30_000) : "row " + id),
                        TimestampData.fromEpochMillis(id)));
            }
            VectorSchemaRoot batch = writer.finish();
            Throwable error = catchThrowable(() -> sink.writeBatch(batch));
            assertThat(error).isInstanceOf(OversizedRecordException.class);
            Matcher row = Pattern.compile("^topic '" + topic + "', row 7 of the Arrow batch of 50 rows: the Kafka"
                    + " record is (\\d+) bytes as Kafka's producer counts it \\(key (\\d+) bytes, value (\\d+) bytes\\),"
                    + " more than the producer's limit of 20000 bytes \\(max.request.size\\); the batch failed before"
                    + " any of its records was sent\\. Raise the producer property 'max.request.size'.*")
                    .matcher(error.getMessage());
            assertThat(row.matches()).as(error.getMessage()).isTrue();
            int key = Integer.parseInt(row.group(2));
            int value = Integer.parseInt(row.group(3));
            assertThat(key).as("the key {\"id\":57}").isEqualTo(9);
            assertThat(value).as("the value: 30 000 x and the other fields").isGreaterThan(30_000);
            assertThat(Integer.parseInt(row.group(1))).isEqualTo(AbstractRecords.estimateSizeInBytesUpperBound(
                    RecordBatch.CURRENT_MAGIC_VALUE, CompressionType.NONE, ByteBuffer.allocate(key),
                    ByteBuffer.allocate(value), Record.EMPTY_HEADERS));
        }
        try (VectorSchemaRoot batch = IdBatches.batch(allocator, 100, 50)) {
            sink.writeBatch(batch);
        }
        sink.commitEpoch(sink.preCommit(0));
        sink.close();

        List<Long> committed = TopicVerifier.forTopic(broker, topic).keepRecords(true).read().records().stream()
                .map(r -> IdBatches.idOf(r.value())).toList();
        assertThat(committed).as("the batches before and after the failed one, once each").isEqualTo(
                LongStream.concat(LongStream.range(0, 50), LongStream.range(100, 150)).boxed().toList());
        assertThat(TopicVerifier.forTopic(broker, topic).readUncommitted().read().totalRecords())
                .as("no record of the failed batch is in the log").isEqualTo(100);
        assertThat(metrics.errors.get()).isEqualTo(1);
        assertThat(metrics.committed).containsExactly(0L);
    }

    private void writeEpoch(ArrowKafkaSink sink, long epoch, long firstId) {
        sink.beginEpoch(epoch);
        for (int b = 0; b < 2; b++) {
            try (VectorSchemaRoot batch = IdBatches.batch(allocator, firstId + b * 50L, 50)) {
                sink.writeBatch(batch);
            }
        }
    }

    private static void addAll(RecordSlab slab, List<byte[]> into) {
        into.addAll(List.of(slab.drain()));
    }

    /** Records what the sink reports. */
    static final class RecordingListener implements SinkListener {
        final AtomicLong records = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong encodeNanos = new AtomicLong();
        final AtomicLong sendNanos = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final List<Long> committed = new ArrayList<>();
        final List<Long> aborted = new ArrayList<>();

        @Override
        public void batchWritten(long recordCount, long byteCount, long encode, long send) {
            records.addAndGet(recordCount);
            bytes.addAndGet(byteCount);
            encodeNanos.addAndGet(encode);
            sendNanos.addAndGet(send);
        }

        @Override
        public void sendFailed(Throwable error) {
            errors.incrementAndGet();
        }

        @Override
        public void epochCommitted(long epoch) {
            committed.add(epoch);
        }

        @Override
        public void epochAborted(long epoch) {
            aborted.add(epoch);
        }
    }

}
