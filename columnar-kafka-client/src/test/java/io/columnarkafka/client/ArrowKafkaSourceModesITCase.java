package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.parity.FlinkJsonOracle;
import io.columnarkafka.testkit.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowKafkaSource}'s metadata columns, bounded mode, topic pattern and group rebalances against a real
 * broker. Expected values come from the Kafka records themselves (read back by a plain {@code KafkaConsumer}) and
 * from what was written; values are written by Flink's JSON serializer. Each source's allocator is a child of the
 * test's, which closes at zero.
 */
class ArrowKafkaSourceModesITCase {
    private static final String TYPE = "ROW<id BIGINT, name STRING>";
    private static final RowType ROW_TYPE = RowTypes.parse(TYPE);
    private static final FlinkJsonOracle VALUE_WRITER = FlinkJsonOracle.of(ROW_TYPE, Map.of());
    private static final Duration DEADLINE = Duration.ofSeconds(90);

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

    private static String newTopic(String prefix, int partitions) {
        String topic = prefix + "-" + (++topics);
        broker.createTopic(topic, partitions);
        return topic;
    }

    private static ArrowKafkaSourceConfig.Builder json(String topic) {
        return ArrowKafkaSourceConfig.builder()
                .bootstrapServers(broker.bootstrapServers())
                .topics(topic)
                .groupId(topic + "-group")
                .rowType(TYPE)
                .valueFormat("json", Map.of())
                .startFromEarliest();
    }

    private static byte[] value(long id) {
        return VALUE_WRITER.serialize(GenericRowData.of(id, StringData.fromString("n" + id)));
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, long id) {
        return new ProducerRecord<>(topic, partition, null, value(id));
    }

    /** Records of ids {@code from} to {@code to - 1} in {@code partition}, timestamps 1000 + id. */
    private static List<ProducerRecord<byte[], byte[]>> ids(String topic, int partition, long from, long to) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long id = from; id < to; id++) {
            records.add(new ProducerRecord<>(topic, partition, 1000 + id, null, value(id)));
        }
        return records;
    }

    private static List<Long> idsOf(ArrowKafkaBatch batch) {
        List<Long> ids = new ArrayList<>();
        for (int row = 0; row < batch.rowCount(); row++) {
            ids.add((Long) PlainValues.decodedFromArrow(batch.root(), ROW_TYPE, row).get(0));
        }
        return ids;
    }

    private static List<Long> range(long from, long to) {
        return IntStream.range((int) from, (int) to).mapToObj(i -> (long) i).toList();
    }

    /** Polls until {@code done}, handing each batch to {@code each} and closing it. */
    private static void pollUntil(ArrowKafkaSource source, BooleanSupplier done, Consumer<ArrowKafkaBatch> each) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("deadline").isLessThan(deadline);
            for (ArrowKafkaBatch batch : source.poll(Duration.ofMillis(200))) {
                try (batch) {
                    each.accept(batch);
                }
            }
        }
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
        String topic = newTopic("metadata", 2);
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
            written.add(new ProducerRecord<>(topic, (int) (id % 2), id % 3 == 0 ? null : 1_700_000_000_000L + id,
                    null, tombstone ? null : value(id), headers));
        }
        broker.produce(written);
        List<ConsumerRecord<byte[], byte[]>> records = recordsOf(topic, written.size());
        Map<TopicPartition, Map<Long, ConsumerRecord<byte[], byte[]>>> byOffset = new HashMap<>();
        records.forEach(r -> byOffset.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), p -> new TreeMap<>())
                .put(r.offset(), r));

        ArrowKafkaSourceConfig config = json(topic).maxBatchRows(40)
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
        String topic = newTopic("bounded", 3);
        List<ProducerRecord<byte[], byte[]>> before = new ArrayList<>(ids(topic, 0, 0, 50));
        before.addAll(ids(topic, 2, 100, 130));
        broker.produce(before);

        Map<Integer, List<Long>> read = new TreeMap<>();
        try (ArrowKafkaSource source = new ArrowKafkaSource(json(topic).stopAtLatest().maxBatchRows(16).build(), allocator)) {
            source.open();
            // written after the start: partition 0 past its bound, partition 1 (empty at the start) too
            List<ProducerRecord<byte[], byte[]>> after = new ArrayList<>(ids(topic, 0, 50, 70));
            after.addAll(ids(topic, 1, 200, 205));
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
        String topic = newTopic("bounded-modes", 3);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(ids(topic, 0, 0, 40));
        records.addAll(ids(topic, 1, 0, 5));
        records.addAll(ids(topic, 2, 0, 30));
        broker.produce(records);

        // partition 0 before offset 10; the others unspecified and never committed: their earliest, nothing read
        assertThat(readBounded(json(topic).groupId(topic + "-specific").stopAtOffsets(Map.of(0, 10L))))
                .isEqualTo(Map.of(0, range(0, 10)));
        // before the first record at or after 1012 (timestamps are 1000 + id); partition 1 has none: its end
        assertThat(readBounded(json(topic).groupId(topic + "-timestamp").stopAtTimestamp(1012)))
                .isEqualTo(Map.of(0, range(0, 12), 1, range(0, 5), 2, range(0, 12)));
        String group = topic + "-committed";
        try (Admin admin = broker.createAdmin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(7),
                    new TopicPartition(topic, 1), new OffsetAndMetadata(0), new TopicPartition(topic, 2),
                    new OffsetAndMetadata(3))).all().get();
        }
        assertThat(readBounded(json(topic).groupId(group).stopAtCommitted()))
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
        broker.produce(ids(prefix + "-a", 0, 0, 10));
        broker.produce(ids(prefix + "-other", 0, 500, 510));

        Map<String, List<Long>> read = new TreeMap<>();
        ArrowKafkaSourceConfig config = ArrowKafkaSourceConfig.builder()
                .bootstrapServers(broker.bootstrapServers())
                .topicPattern(prefix + "-[a-c]")
                .groupId(prefix + "-group")
                .rowType(TYPE)
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
            broker.produce(ids(prefix + "-b", 1, 20, 25));
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
        String topic = newTopic("group", 4);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long id = 0; id < 4000; id++) {
            records.add(record(topic, (int) (id % 4), id));
        }
        broker.produce(records);
        ArrowKafkaSourceConfig config = json(topic).startFromCommitted()
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
            for (int i = 0; i < 5; i++) {
                second.poll();
            }
            assertThat(second.source.assignment()).as("the second member took every partition").hasSize(4);
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
