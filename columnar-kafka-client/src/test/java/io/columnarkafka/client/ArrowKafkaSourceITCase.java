package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.client.decode.KafkaDecodeException;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle;
import io.columnarkafka.format.json.parity.FlinkJsonOracle;
import io.columnarkafka.testkit.KafkaBroker;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowKafkaSource} against a real broker. Records are written by Flink's own JSON serializer
 * ({@code JsonRowDataSerializationSchema}, {@link FlinkJsonOracle}), and the values expected are those Flink's
 * JSON deserializer ({@link FlinkJsonDecodeOracle}) returns on the same key and value bytes, joined as Flink's
 * Kafka table source joins them (key fields from the key, the rest from the value; a tombstone gives no row).
 * Metadata columns, bounded reads, topic patterns and group rebalances (the last tests) take their expected values
 * from the Kafka records themselves (read back by a plain {@code KafkaConsumer}) and from what was written. Each
 * source's allocator is a child of the test's, which closes at zero.
 */
class ArrowKafkaSourceITCase {
    private static final String TYPE = "ROW<id BIGINT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
            + " flag BOOLEAN, score DOUBLE, tags ARRAY<STRING>>";
    private static final RowType ROW_TYPE = RowTypes.parse(TYPE);
    private static final RowType KEY_TYPE = RowTypes.parse("ROW<id BIGINT>");
    private static final RowType VALUE_TYPE = RowTypes.parse("ROW<name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
            + " flag BOOLEAN, score DOUBLE, tags ARRAY<STRING>>");
    private static final FlinkJsonOracle KEY_WRITER = FlinkJsonOracle.of(KEY_TYPE, Map.of());
    private static final FlinkJsonOracle VALUE_WRITER = FlinkJsonOracle.of(VALUE_TYPE, Map.of());
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String ID_NAME = "ROW<id BIGINT, name STRING>";
    private static final RowType ID_NAME_TYPE = RowTypes.parse(ID_NAME);
    private static final FlinkJsonOracle ID_NAME_WRITER = FlinkJsonOracle.of(ID_NAME_TYPE, Map.of());

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
        assertThat(allocator.getChildAllocators()).as("source allocators left open").isEmpty();
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static String newTopic(int partitions) {
        String topic = "source-" + (++topics);
        broker.createTopic(topic, partitions);
        return topic;
    }

    /** Key fields from a JSON key, the rest from a JSON value (Flink's EXCEPT_KEY), read from the earliest offsets. */
    private static ArrowKafkaSourceConfig.Builder keyed(String topic, Map<String, String> valueOptions) {
        return ArrowKafkaSourceConfig.builder()
                .bootstrapServers(broker.bootstrapServers())
                .topics(topic)
                .groupId(topic + "-group")
                .rowType(TYPE)
                .keyFields("id").keyFormat("json", Map.of())
                .valueFieldsInclude("EXCEPT_KEY")
                .valueFormat("json", valueOptions)
                .startFromEarliest();
    }

    /** A row of the value fields; names escape, leave ASCII and the BMP; some fields null. */
    private static GenericRowData valueRow(long id, Random random) {
        String name = id % 9 == 4 ? null : "n\"" + id + (id % 3 == 0 ? " é 😀 \\ \n" : "");
        DecimalData price = DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2), 10, 2);
        TimestampData ts = TimestampData.fromLocalDateTime(
                LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(random.nextInt(100_000_000)).plusNanos(random.nextInt(1000) * 1_000_000L));
        Object tags = id % 5 == 0 ? null : new GenericArrayData(new Object[] {StringData.fromString("t" + id), null});
        return GenericRowData.of(StringData.fromString(name), id % 11 == 1 ? null : price, ts, id % 2 == 0,
                random.nextDouble() * 1e6 - 5e5, tags);
    }

    /** Records of ids 0 to {@code count - 1} in partition 0, keys and values written by Flink's serializer. */
    private static List<ProducerRecord<byte[], byte[]>> ids0To(String topic, int count) {
        Random random = new Random(count);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long id = 0; id < count; id++) {
            records.add(new ProducerRecord<>(topic, 0, key(id), VALUE_WRITER.serialize(valueRow(id, random))));
        }
        return records;
    }

    private static byte[] key(long id) {
        return KEY_WRITER.serialize(GenericRowData.of(id));
    }

    /**
     * The rows Flink's Kafka table source makes of these records (in order): Flink's deserializer on the key and on
     * the value, a row per key row per value row ({@code DynamicKafkaDeserializationSchema}), the key's field first.
     */
    private static List<List<Object>> flinkRows(List<ProducerRecord<byte[], byte[]>> records, Map<String, String> valueOptions) {
        FlinkJsonDecodeOracle keys = FlinkJsonDecodeOracle.of(KEY_TYPE, Map.of());
        FlinkJsonDecodeOracle values = FlinkJsonDecodeOracle.of(VALUE_TYPE, valueOptions);
        List<List<Object>> rows = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> record : records) {
            FlinkJsonDecodeOracle.Outcome key = keys.deserialize(record.key());
            FlinkJsonDecodeOracle.Outcome value = values.deserialize(record.value());
            assertThat(key.rejected() || value.rejected()).as("Flink rejects a record of this test").isFalse();
            for (RowData valueRow : value.rows()) {
                // a null row would fail Flink's keyed Kafka source (docs/formats-text.md, "Null rows"): not a case here
                assertThat(valueRow).as("Flink's row").isNotNull();
                for (RowData keyRow : key.rows()) {
                    GenericRowData joined = new GenericRowData(ROW_TYPE.getFieldCount());
                    joined.setField(0, keyRow.isNullAt(0) ? null : keyRow.getLong(0));
                    for (int i = 0; i < VALUE_TYPE.getFieldCount(); i++) {
                        joined.setField(i + 1, RowData.createFieldGetter(VALUE_TYPE.getTypeAt(i), i).getFieldOrNull(valueRow));
                    }
                    rows.add(PlainValues.decodedFromFlink(joined, ROW_TYPE));
                }
            }
        }
        return rows;
    }

    /** Polls until {@code done}, handing each batch to {@code each} and closing it. */
    private static void pollUntil(ArrowKafkaSource source, BooleanSupplier done, Consumer<ArrowKafkaBatch> each) {
        pollUntil(source, done, each, error -> {
            throw error;
        });
    }

    /** As above; a poll that throws goes to {@code failed}. */
    private static void pollUntil(ArrowKafkaSource source, BooleanSupplier done, Consumer<ArrowKafkaBatch> each,
            Consumer<RuntimeException> failed) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("deadline").isLessThan(deadline);
            try {
                for (ArrowKafkaBatch batch : source.poll(Duration.ofMillis(200))) {
                    try (batch) {
                        each.accept(batch);
                    }
                }
            } catch (RuntimeException e) {
                failed.accept(e);
            }
        }
    }

    /** Polls, handing each batch to {@code each} and closing it, until a poll throws; returns what it threw. */
    private static Throwable pollUntilFailure(ArrowKafkaSource source, Consumer<ArrowKafkaBatch> each) {
        Throwable[] thrown = {null};
        pollUntil(source, () -> thrown[0] != null, each, error -> thrown[0] = error);
        return thrown[0];
    }

    private static List<Object> ids(ArrowKafkaBatch batch) {
        List<Object> ids = new ArrayList<>();
        for (int row = 0; row < batch.rowCount(); row++) {
            ids.add(PlainValues.decodedFromArrow(batch.root(), ROW_TYPE, row).get(0));
        }
        return ids;
    }

    private static long endOffset(TopicPartition partition) throws Exception {
        try (Admin admin = broker.createAdmin()) {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
        }
    }

    @Test
    void recordsWrittenByFlinksSerializerReadBackAsFlinksDeserializerReadsThem() {
        String topic = newTopic(3);
        Random random = new Random(42);
        Map<Integer, List<ProducerRecord<byte[], byte[]>>> byPartition = new TreeMap<>();
        List<ProducerRecord<byte[], byte[]>> all = new ArrayList<>();
        int tombstones = 0;
        for (long id = 0; id < 1500; id++) {
            int partition = (int) (id % 3);
            boolean tombstone = id % 50 == 7;
            tombstones += tombstone ? 1 : 0;
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, key(id),
                    tombstone ? null : VALUE_WRITER.serialize(valueRow(id, random)));
            byPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(record);
            all.add(record);
        }
        broker.produce(all);
        assertThat(tombstones).isPositive();

        Map<Integer, List<List<Object>>> read = new TreeMap<>();
        Map<Integer, Long> next = new HashMap<>(Map.of(0, 0L, 1, 0L, 2, 0L));
        int[] records = {0};
        try (ArrowKafkaSource source = new ArrowKafkaSource(keyed(topic, Map.of()).maxBatchRows(64).build(), allocator)) {
            assertThat(source.validate()).isEmpty();
            assertThat(source.decoding()).isEqualTo("json value (JsonBatchDecoder), json key (JsonBatchDecoder)");
            source.open();
            pollUntil(source, () -> records[0] == all.size(), batch -> {
                assertThat(batch.topic()).isEqualTo(topic);
                assertThat(batch.records()).isBetween(1, 64);
                assertThat(batch.firstOffset()).as("batches of a partition follow each other").isEqualTo(next.get(batch.partition()));
                assertThat(batch.lastOffset() - batch.firstOffset() + 1).isEqualTo(batch.records());
                assertThat(batch.rowCount()).isLessThanOrEqualTo(batch.records());
                next.put(batch.partition(), batch.nextOffset());
                records[0] += batch.records();
                for (int row = 0; row < batch.rowCount(); row++) {
                    read.computeIfAbsent(batch.partition(), p -> new ArrayList<>())
                            .add(PlainValues.decodedFromArrow(batch.root(), ROW_TYPE, row));
                }
            });
        }
        int compared = 0;
        for (Map.Entry<Integer, List<ProducerRecord<byte[], byte[]>>> partition : byPartition.entrySet()) {
            List<List<Object>> expected = flinkRows(partition.getValue(), Map.of());
            assertThat(read.get(partition.getKey())).as("partition " + partition.getKey()).isEqualTo(expected);
            assertThat(next.get(partition.getKey())).isEqualTo(partition.getValue().size());
            compared += expected.size();
        }
        assertThat(compared).as("rows compared: every record but the tombstones").isEqualTo(all.size() - tombstones);
    }

    @Test
    void readCommittedByDefaultHidesAbortedTransactions() throws Exception {
        String topic = newTopic(1);
        TopicPartition partition = new TopicPartition(topic, 0);
        Properties producer = broker.clientProperties();
        producer.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx");
        Random random = new Random(7);
        try (KafkaProducer<byte[], byte[]> kafka = new KafkaProducer<>(producer, new ByteArraySerializer(), new ByteArraySerializer())) {
            kafka.initTransactions();
            for (long[] transaction : new long[][] {{0, 1}, {100, 0}, {20, 1}}) {
                kafka.beginTransaction();
                for (long id = transaction[0]; id < transaction[0] + 10; id++) {
                    kafka.send(new ProducerRecord<>(topic, 0, key(id), VALUE_WRITER.serialize(valueRow(id, random))));
                }
                kafka.flush();
                if (transaction[1] == 1) {
                    kafka.commitTransaction();
                } else {
                    kafka.abortTransaction();
                }
            }
        }
        long end = endOffset(partition);
        List<Object> committed = new ArrayList<>();
        try (ArrowKafkaSource source = new ArrowKafkaSource(keyed(topic, Map.of()).build(), allocator)) {
            source.open();
            pollUntil(source, () -> !source.assignment().isEmpty() && source.position(partition) >= end,
                    batch -> committed.addAll(ids(batch)));
        }
        List<Object> uncommitted = new ArrayList<>();
        try (ArrowKafkaSource source = new ArrowKafkaSource(
                keyed(topic, Map.of()).groupId(topic + "-uncommitted").isolationLevel("read_uncommitted").build(), allocator)) {
            source.open();
            pollUntil(source, () -> !source.assignment().isEmpty() && source.position(partition) >= end,
                    batch -> uncommitted.addAll(ids(batch)));
        }
        List<Object> expectedCommitted = new ArrayList<>();
        for (long id = 0; id < 10; id++) {
            expectedCommitted.add(id);
        }
        for (long id = 20; id < 30; id++) {
            expectedCommitted.add(id);
        }
        assertThat(committed).isEqualTo(expectedCommitted);
        assertThat(uncommitted).as("read_uncommitted sees the aborted records").hasSize(30).containsAll(expectedCommitted)
                .contains(100L, 109L);
    }

    @Test
    void commitsOnlyWhatTheCallerCommitsAndResumesThere() {
        String topic = newTopic(1);
        TopicPartition partition = new TopicPartition(topic, 0);
        broker.produce(ids0To(topic, 100));

        List<ArrowKafkaBatch> kept = new ArrayList<>();
        try (ArrowKafkaSource first = new ArrowKafkaSource(keyed(topic, Map.of()).maxBatchRows(30).build(), allocator)) {
            first.open();
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (kept.size() < 2) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                kept.addAll(first.poll(Duration.ofMillis(200)));
            }
            kept.forEach(ArrowKafkaBatch::close);
            assertThat(kept.get(0).firstOffset()).isZero();
            assertThat(kept.get(0).lastOffset()).isEqualTo(29);
            assertThat(kept.get(1).firstOffset()).isEqualTo(30);
            assertThat(first.committed(Set.of(partition))).as("nothing committed by the source on its own").isEmpty();
            first.commit(kept.get(0));
            assertThat(first.committed(Set.of(partition)).get(partition).offset()).isEqualTo(30);
        }
        List<ArrowKafkaBatch> resumed = new ArrayList<>();
        try (ArrowKafkaSource second = new ArrowKafkaSource(keyed(topic, Map.of()).startFromCommitted().maxBatchRows(30).build(),
                allocator)) {
            second.open();
            pollUntil(second, () -> !resumed.isEmpty(), batch -> {
                assertThat(ids(batch).get(0)).isEqualTo(30L);
                resumed.add(batch);
            });
            assertThat(resumed.get(0).firstOffset()).isEqualTo(30);
            assertThat(second.position(partition)).isEqualTo(resumed.get(0).nextOffset());
            second.seek(partition, 5);
            assertThat(second.position(partition)).isEqualTo(5);
            List<Object> afterSeek = new ArrayList<>();
            pollUntil(second, () -> !afterSeek.isEmpty(), batch -> afterSeek.addAll(ids(batch)));
            assertThat(afterSeek.get(0)).isEqualTo(5L);
        }
    }

    @Test
    void aMalformedRecordFailsThePollNamingItsOffsetAndIgnoreParseErrorsSkipsItAsFlinkDoes() {
        String topic = newTopic(1);
        TopicPartition partition = new TopicPartition(topic, 0);
        List<ProducerRecord<byte[], byte[]>> records = ids0To(topic, 16);
        records.set(10, new ProducerRecord<>(topic, 0, key(10),
                "{\"flag\": true, \"score\": \"not a number\"}".getBytes(StandardCharsets.UTF_8)));
        records.set(12, new ProducerRecord<>(topic, 0, key(12), "not json".getBytes(StandardCharsets.UTF_8)));
        FlinkJsonDecodeOracle strict = FlinkJsonDecodeOracle.of(VALUE_TYPE, Map.of());
        assertThat(strict.deserialize(records.get(10).value()).rejected()).as("Flink rejects record 10").isTrue();
        assertThat(strict.deserialize(records.get(12).value()).rejected()).as("Flink rejects record 12").isTrue();
        broker.produce(records);

        try (ArrowKafkaSource source = new ArrowKafkaSource(keyed(topic, Map.of()).build(), allocator)) {
            source.open();
            List<Object> before = new ArrayList<>();
            Throwable thrown = pollUntilFailure(source, batch -> before.addAll(ids(batch)));
            assertThat(thrown).isInstanceOf(KafkaDecodeException.class)
                    .hasMessageContaining("topic '" + topic + "', partition 0, offset 10, field 'score'");
            KafkaDecodeException decode = (KafkaDecodeException) thrown;
            assertThat(decode.offset()).isEqualTo(10);
            assertThat(decode.field()).isEqualTo("score");
            assertThat(source.allocatedBytes()).as("the failed poll freed what it decoded").isZero();
            assertThat(source.position(partition)).as("back at the first offset the failed poll read")
                    .isEqualTo(before.size());
            source.seek(partition, decode.offset() + 1);
            List<Object> between = new ArrayList<>();
            thrown = pollUntilFailure(source, batch -> between.addAll(ids(batch)));
            assertThat(thrown).isInstanceOf(KafkaDecodeException.class).hasMessageContaining("offset 12");
            assertThat(source.position(partition)).isEqualTo(11 + between.size());
            source.seek(partition, 13);
            List<Object> after = new ArrayList<>();
            pollUntil(source, () -> source.position(partition) >= 16, batch -> after.addAll(ids(batch)));
            assertThat(after).containsExactly(13L, 14L, 15L);
        }

        Map<String, String> ignore = Map.of("ignore-parse-errors", "true");
        List<List<Object>> read = new ArrayList<>();
        long[] covered = {0};
        try (ArrowKafkaSource source = new ArrowKafkaSource(keyed(topic, ignore).groupId(topic + "-ignore").build(), allocator)) {
            source.open();
            pollUntil(source, () -> covered[0] == 16, batch -> {
                assertThat(batch.firstOffset()).isEqualTo(covered[0]);
                covered[0] = batch.nextOffset();
                for (int row = 0; row < batch.rowCount(); row++) {
                    read.add(PlainValues.decodedFromArrow(batch.root(), ROW_TYPE, row));
                }
            });
        }
        FlinkJsonDecodeOracle ignoring = FlinkJsonDecodeOracle.of(VALUE_TYPE, ignore);
        assertThat(ignoring.deserialize(records.get(10).value()).rows()).as("Flink nulls the bad field of record 10")
                .hasSize(1);
        assertThat(ignoring.deserialize(records.get(12).value()).rows()).as("Flink skips record 12").isEmpty();
        assertThat(read).isEqualTo(flinkRows(records, ignore));
    }

    @Test
    void aBatchKeptPastCloseHoldsTheAllocatorUntilItIsClosedAndTheLimitIsEnforced() {
        String topic = newTopic(1);
        TopicPartition partition = new TopicPartition(topic, 0);
        broker.produce(ids0To(topic, 200));

        ArrowKafkaSource source = new ArrowKafkaSource(keyed(topic, Map.of()).build(), allocator);
        source.open();
        List<ArrowKafkaBatch> batches = new ArrayList<>();
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (batches.isEmpty()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            batches.addAll(source.poll(Duration.ofMillis(200)));
        }
        ArrowKafkaBatch batch = batches.get(0);
        assertThat(batch.rowCount()).isPositive();
        source.close();
        assertThat(source.state()).isEqualTo(SourceState.CLOSED);
        assertThat(source.allocatedBytes()).as("the open batch's memory").isPositive();
        assertThat(allocator.getChildAllocators()).hasSize(1);
        assertThatThrownBy(() -> source.poll(Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(ids(batch).get(0)).as("the batch is readable after the source closed").isEqualTo(0L);
        batch.close();
        assertThat(allocator.getChildAllocators()).as("closed with the last batch").isEmpty();
        assertThat(allocator.getAllocatedMemory()).isZero();

        try (ArrowKafkaSource small = new ArrowKafkaSource(
                keyed(topic, Map.of()).groupId(topic + "-small").allocatorLimit(4096).build(), allocator)) {
            small.open();
            Throwable thrown = pollUntilFailure(small, polled -> { });
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessageContaining("limit 4096 bytes");
            assertThat(small.position(partition)).as("rewound to the first offset read").isZero();
        }
    }

    // ------------------------------------------------------------------ metadata, bounds, patterns, groups

    /** {@link #ID_NAME} rows in JSON values, for the tests below: what they check is which records come, not values. */
    private static ArrowKafkaSourceConfig.Builder idName(String topic) {
        return ArrowKafkaSourceConfig.builder()
                .bootstrapServers(broker.bootstrapServers())
                .topics(topic)
                .groupId(topic + "-group")
                .rowType(ID_NAME)
                .valueFormat("json", Map.of())
                .startFromEarliest();
    }

    private static byte[] value(long id) {
        return ID_NAME_WRITER.serialize(GenericRowData.of(id, StringData.fromString("n" + id)));
    }

    private static ProducerRecord<byte[], byte[]> idRecord(String topic, int partition, long id) {
        return new ProducerRecord<>(topic, partition, null, value(id));
    }

    /** Records of ids {@code from} to {@code to - 1} in {@code partition}, timestamps 1000 + id. */
    private static List<ProducerRecord<byte[], byte[]>> timedIds(String topic, int partition, long from, long to) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long id = from; id < to; id++) {
            records.add(new ProducerRecord<>(topic, partition, 1000 + id, null, value(id)));
        }
        return records;
    }

    private static List<Long> idsOf(ArrowKafkaBatch batch) {
        List<Long> ids = new ArrayList<>();
        for (int row = 0; row < batch.rowCount(); row++) {
            ids.add((Long) PlainValues.decodedFromArrow(batch.root(), ID_NAME_TYPE, row).get(0));
        }
        return ids;
    }

    private static List<Long> range(long from, long to) {
        return IntStream.range((int) from, (int) to).mapToObj(i -> (long) i).toList();
    }

    /** Every record of {@code topic}, read by a plain consumer: the expected metadata. */
    private static List<ConsumerRecord<byte[], byte[]>> recordsOf(String topic, int count) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList());
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (records.size() < count) {
                assertThat(System.nanoTime()).as("deadline").isLessThan(deadline);
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    // ------------------------------------------------------------------ metadata columns

    @Test
    void metadataColumnsHoldEachRowsRecord() {
        String topic = newTopic(2);
        // a second topic whose broker sets the timestamps: LogAppendTime beside CreateTime, and another topic name
        String appendTime = "append-time-" + (++topics);
        broker.createTopic(appendTime, 1, Map.of("message.timestamp.type", "LogAppendTime"));
        List<ProducerRecord<byte[], byte[]>> written = new ArrayList<>();
        for (long id = 0; id < 300; id++) {
            List<Header> headers = new ArrayList<>();
            for (int h = 0; h < id % 4; h++) {
                headers.add(new RecordHeader("h" + h, h == 1 ? null : ("v" + id + h).getBytes(StandardCharsets.UTF_8)));
            }
            if (id % 7 == 3) {
                headers.add(new RecordHeader("h0", "again".getBytes(StandardCharsets.UTF_8))); // a repeated key
            }
            boolean tombstone = id % 25 == 11;
            written.add(new ProducerRecord<>(id % 5 == 4 ? appendTime : topic, (int) (id % 2) * (id % 5 == 4 ? 0 : 1),
                    id % 3 == 0 ? null : 1_700_000_000_000L + id, null, tombstone ? null : value(id), headers));
        }
        broker.produce(written);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(recordsOf(topic, 240));
        records.addAll(recordsOf(appendTime, 60));
        Map<TopicPartition, Map<Long, ConsumerRecord<byte[], byte[]>>> byOffset = new HashMap<>();
        records.forEach(r -> byOffset.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), p -> new TreeMap<>())
                .put(r.offset(), r));

        ArrowKafkaSourceConfig config = idName(topic).topics(topic, appendTime).maxBatchRows(40)
                .metadataColumns("topic", "partition", "offset AS kafka_offset", "timestamp", "timestamp-type",
                        "headers", "leader-epoch")
                .build();
        int[] covered = {0};
        int compared;
        List<List<Object>> read = new ArrayList<>();
        List<List<Object>> expected = new ArrayList<>();
        try (ArrowKafkaSource source = new ArrowKafkaSource(config, allocator)) {
            assertThat(source.validate()).isEmpty();
            RowType type = source.rowType();
            source.open();
            pollUntil(source, () -> covered[0] == written.size(), batch -> {
                covered[0] += batch.records();
                for (int row = 0; row < batch.rowCount(); row++) {
                    read.add(PlainValues.decodedFromArrow(batch.root(), type, row));
                }
                // the rows are those of the batch's records with a value, in offset order
                for (long offset = batch.firstOffset(); offset <= batch.lastOffset(); offset++) {
                    ConsumerRecord<byte[], byte[]> record = byOffset.get(batch.topicPartition()).get(offset);
                    if (record.value() != null) {
                        expected.add(expectedRow(record));
                    }
                }
            });
        }
        compared = read.size();
        assertThat(read).isEqualTo(expected);
        assertThat(compared).as("rows compared: every record but the tombstones").isEqualTo(300 - 12);
        assertThat(read).extracting(row -> row.get(7)).as("some rows with headers").anyMatch(h -> !((List<?>) h).isEmpty());
        assertThat(read).extracting(row -> row.get(6)).as("both timestamp types").contains("CreateTime", "LogAppendTime");
        assertThat(read).extracting(row -> row.get(2)).as("both topics").contains(topic, appendTime);
        assertThat(read).extracting(row -> row.get(8)).as("leader epochs present").doesNotContainNull();
    }

    /**
     * A record's row: its id and name, then its metadata as Flink's {@code ReadableMetadata} converters read them
     * (the topic, partition, offset, timestamp millis, {@code timestampType().toString()}, the headers as a map whose
     * repeated keys take their last value, as {@code HashMap.put} in Flink's converter, compared sorted by key: the
     * entry order is proven against Flink's converter by {@code HeadersColumnProperties}, and the leader epoch).
     */
    private static List<Object> expectedRow(ConsumerRecord<byte[], byte[]> record) {
        String text = new String(record.value(), StandardCharsets.UTF_8);
        long id = Long.parseLong(text.replaceAll(".*\"id\":(\\d+).*", "$1"));
        Map<String, String> headers = new TreeMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value() == null ? null : HexFormat.of().formatHex(header.value()));
        }
        List<Object> entries = headers.entrySet().stream().map(e -> (Object) java.util.Arrays.asList(e.getKey(), e.getValue()))
                .toList();
        return java.util.Arrays.asList(id, "n" + id, record.topic(), (long) record.partition(), record.offset(),
                PlainValues.exact(record.timestamp(), 0), record.timestampType().toString(), entries,
                record.leaderEpoch().map(Integer::longValue).orElse(null));
    }

    // ------------------------------------------------------------------ bounded mode

    @Test
    void boundedLatestStopsAtTheEndOffsetsSeenAtOpenEvenForAnEmptyPartition() throws Exception {
        String topic = newTopic(3);
        List<ProducerRecord<byte[], byte[]>> before = new ArrayList<>(timedIds(topic, 0, 0, 50));
        before.addAll(timedIds(topic, 2, 100, 130));
        broker.produce(before);

        Map<Integer, List<Long>> read = new TreeMap<>();
        try (ArrowKafkaSource source = new ArrowKafkaSource(idName(topic).stopAtLatest().maxBatchRows(16).build(), allocator)) {
            source.open();
            // written after the start: partition 0 past its bound, partition 1 (empty at the start) too
            List<ProducerRecord<byte[], byte[]>> after = new ArrayList<>(timedIds(topic, 0, 50, 70));
            after.addAll(timedIds(topic, 1, 200, 205));
            broker.produce(after);
            pollUntil(source, source::endOfInput, batch -> {
                assertThat(batch.records()).isBetween(1, 16);
                read.computeIfAbsent(batch.partition(), p -> new ArrayList<>()).addAll(idsOf(batch));
            });
            Set<TopicPartition> all = Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1),
                    new TopicPartition(topic, 2));
            assertThat(source.finishedPartitions()).isEqualTo(all);
            for (int i = 0; i < 3; i++) {
                assertThat(source.poll(Duration.ofMillis(200))).as("nothing past the end").isEmpty();
            }
        }
        assertThat(read).isEqualTo(Map.of(0, range(0, 50), 2, range(100, 130)));
        try (Admin admin = broker.createAdmin()) {
            assertThat(admin.listOffsets(Map.of(new TopicPartition(topic, 0),
                    org.apache.kafka.clients.admin.OffsetSpec.latest())).all().get().values().iterator().next().offset())
                    .as("the records past the bound are there").isEqualTo(70);
        }
    }

    @Test
    void boundedSpecificOffsetsTimestampAndCommittedStopWhereFlinksModesDo() throws Exception {
        String topic = newTopic(3);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(timedIds(topic, 0, 0, 40));
        records.addAll(timedIds(topic, 1, 0, 5));
        records.addAll(timedIds(topic, 2, 0, 30));
        broker.produce(records);

        // partition 0 before offset 10; the others unspecified and never committed: their earliest, nothing read
        assertThat(readBounded(idName(topic).groupId(topic + "-specific").stopAtOffsets(Map.of(0, 10L))))
                .isEqualTo(Map.of(0, range(0, 10)));
        // before the first record at or after 1012 (timestamps are 1000 + id); partition 1 has none: its end
        assertThat(readBounded(idName(topic).groupId(topic + "-timestamp").stopAtTimestamp(1012)))
                .isEqualTo(Map.of(0, range(0, 12), 1, range(0, 5), 2, range(0, 12)));
        String group = topic + "-committed";
        try (Admin admin = broker.createAdmin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(7),
                    new TopicPartition(topic, 1), new OffsetAndMetadata(0), new TopicPartition(topic, 2),
                    new OffsetAndMetadata(3))).all().get();
        }
        assertThat(readBounded(idName(topic).groupId(group).stopAtCommitted()))
                .isEqualTo(Map.of(0, range(0, 7), 2, range(0, 3)));
    }

    private Map<Integer, List<Long>> readBounded(ArrowKafkaSourceConfig.Builder config) {
        Map<Integer, List<Long>> read = new TreeMap<>();
        try (ArrowKafkaSource source = new ArrowKafkaSource(config.maxBatchRows(8).build(), allocator)) {
            source.open();
            pollUntil(source, source::endOfInput,
                    batch -> read.computeIfAbsent(batch.partition(), p -> new ArrayList<>()).addAll(idsOf(batch)));
        }
        return read;
    }

    // ------------------------------------------------------------------ topic pattern

    @Test
    void aTopicPatternSubscribesToMatchingTopicsCreatedLater() {
        String prefix = "pattern" + (++topics);
        broker.createTopic(prefix + "-a", 1);
        broker.createTopic(prefix + "-other", 1);
        broker.produce(timedIds(prefix + "-a", 0, 0, 10));
        broker.produce(timedIds(prefix + "-other", 0, 500, 510));

        Map<String, List<Long>> read = new TreeMap<>();
        ArrowKafkaSourceConfig config = ArrowKafkaSourceConfig.builder()
                .bootstrapServers(broker.bootstrapServers())
                .topicPattern(prefix + "-[a-c]")
                .groupId(prefix + "-group")
                .rowType(ID_NAME)
                .valueFormat("json", Map.of())
                .startFromEarliest()
                .consumerProperty("metadata.max.age.ms", "500")
                .build();
        try (ArrowKafkaSource source = new ArrowKafkaSource(config, allocator)) {
            assertThat(source.validate()).isEmpty();
            source.open();
            // committed as processed: the new topic's rebalance gives every partition again, from the group's commit
            Consumer<ArrowKafkaBatch> collect = batch -> {
                read.computeIfAbsent(batch.topic(), t -> new ArrayList<>()).addAll(idsOf(batch));
                source.commit(batch);
            };
            pollUntil(source, () -> read.values().stream().mapToInt(List::size).sum() >= 10, collect);
            broker.createTopic(prefix + "-b", 2);
            broker.produce(timedIds(prefix + "-b", 1, 20, 25));
            pollUntil(source, () -> read.values().stream().mapToInt(List::size).sum() >= 15, collect);
            for (int i = 0; i < 3; i++) {
                source.poll(Duration.ofMillis(200)).forEach(batch -> {
                    collect.accept(batch);
                    batch.close();
                });
            }
            assertThat(source.assignment()).extracting(TopicPartition::topic).containsOnly(prefix + "-a", prefix + "-b");
        }
        assertThat(read).isEqualTo(Map.of(prefix + "-a", range(0, 10), prefix + "-b", range(20, 25)));
    }

    // ------------------------------------------------------------------ two members, a rebalance

    /**
     * A member that commits lazily (every third poll) and, through its {@link PartitionListener}, what it has
     * processed of the partitions taken from it: without the latter its uncommitted batches would be read again.
     */
    private static final class Member implements PartitionListener {
        final String name;
        final ArrowKafkaSource source;
        final List<Long> consumed = new ArrayList<>();
        final Map<TopicPartition, OffsetAndMetadata> processed = new HashMap<>();
        final List<ArrowKafkaBatch> kept = new ArrayList<>();
        final Set<TopicPartition> revoked = new TreeSet<>((a, b) -> a.toString().compareTo(b.toString()));
        int polls;

        Member(String name, ArrowKafkaSourceConfig config, BufferAllocator allocator) {
            this.name = name;
            this.source = new ArrowKafkaSource(config, allocator);
            source.setPartitionListener(this);
            source.open();
        }

        void poll() {
            for (ArrowKafkaBatch batch : source.poll(Duration.ofMillis(100))) {
                consumed.addAll(idsOf(batch));
                processed.put(batch.topicPartition(), new OffsetAndMetadata(batch.nextOffset()));
                if (kept.isEmpty()) {
                    kept.add(batch); // held by the caller across the rebalance, closed at the end
                } else {
                    batch.close();
                }
            }
            if (++polls % 3 == 0) {
                commitProcessed(List.copyOf(processed.keySet()));
            }
        }

        private void commitProcessed(Collection<TopicPartition> partitions) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = processed.remove(partition);
                if (offset != null) {
                    offsets.put(partition, offset);
                }
            }
            if (!offsets.isEmpty()) {
                source.commit(offsets);
            }
        }

        @Override
        public void revoked(Collection<TopicPartition> partitions) {
            revoked.addAll(partitions);
            commitProcessed(partitions);
        }
    }

    @Test
    void twoMembersShareFourPartitionsAcrossRebalancesWithoutLossOrDuplicates() {
        String topic = newTopic(4);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long id = 0; id < 4000; id++) {
            records.add(idRecord(topic, (int) (id % 4), id));
        }
        broker.produce(records);
        ArrowKafkaSourceConfig config = idName(topic).startFromCommitted()
                .consumerProperty("auto.offset.reset", "earliest")
                .consumerProperty("max.poll.records", "40")
                .maxBatchRows(40)
                .build();

        Member first = new Member("first", config, allocator);
        Member second = null;
        try {
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (first.consumed.size() < 800) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                first.poll();
            }
            second = new Member("second", config, allocator);
            // both poll until the group has split the partitions and both have read some since
            while (second.source.assignment().isEmpty() || second.consumed.size() < 400
                    || first.source.assignment().size() == 4) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                first.poll();
                second.poll();
            }
            assertThat(first.revoked).as("the join took partitions from the first member").isNotEmpty();
            assertThat(first.source.assignment().size() + second.source.assignment().size()).isEqualTo(4);
            int firstConsumed = first.consumed.size();
            Set<TopicPartition> firstHeld = Set.copyOf(first.source.assignment());
            first.revoked.clear();
            first.source.close(); // leaves the group: its listener commits what it processed
            assertThat(first.revoked).as("closing revoked every partition of the first member")
                    .containsExactlyInAnyOrderElementsOf(firstHeld);
            while (first.consumed.size() + second.consumed.size() < 4000) {
                assertThat(System.nanoTime()).as("deadline; read " + (first.consumed.size() + second.consumed.size()))
                        .isLessThan(deadline);
                second.poll();
            }
            // The first member may have read all of its partitions before it left; the second learns of the
            // rebalance only at its next heartbeat (3 s by default), so it polls until it holds every partition.
            while (second.source.assignment().size() < 4) {
                assertThat(System.nanoTime()).as("the second member took every partition").isLessThan(deadline);
                second.poll();
            }
            assertThat(first.consumed).hasSize(firstConsumed);
            assertThat(first.kept.get(0).root().getRowCount()).as("a batch of a revoked partition stays the caller's")
                    .isEqualTo(first.kept.get(0).rowCount());
        } finally {
            first.source.close();
            first.kept.forEach(ArrowKafkaBatch::close);
            if (second != null) {
                second.source.close();
                second.kept.forEach(ArrowKafkaBatch::close);
            }
        }
        List<Long> union = new ArrayList<>(first.consumed);
        union.addAll(second.consumed);
        assertThat(union).as("every record once: none lost, none read twice").hasSize(4000)
                .containsExactlyInAnyOrderElementsOf(range(0, 4000));
        assertThat(second.consumed).as("both members read").isNotEmpty();
        assertThat(first.consumed.size()).isGreaterThanOrEqualTo(800);
        Set<Long> firstSet = first.consumed.stream().collect(Collectors.toSet());
        assertThat(second.consumed).as("nothing of the first member's read again by the second").noneMatch(firstSet::contains);
    }
}
