package io.columnarkafka.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * Reads a whole topic once and reports what it holds: counts, optionally the records, and optionally a comparison
 * with the values that should be there (exactly-once check).
 *
 * <pre>{@code
 * TopicReport report = TopicVerifier.forTopic(bootstrap, "orders")
 *         .verifyIds(0, 2_000_000, value -> ByteBuffer.wrap(value).getLong(0));
 * assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
 * }</pre>
 *
 * <p>How it reads: a consumer without a group ({@code assign()}, no offsets committed) on every partition
 * captures the end offsets first, seeks to the beginning and polls until each partition's position reaches its
 * captured end offset; records at or past that offset (written meanwhile) are ignored. With the default
 * {@code isolation.level=read_committed} the end offset is the last stable offset, so records of aborted
 * transactions are skipped and an open transaction stops the read at its first record instead of hanging. With
 * {@link #readUncommitted()} the end offset is the high watermark and aborted records are read too.
 *
 * <p>Memory: without {@link #keepRecords(boolean)}, values are not retained; the comparison holds one entry per
 * distinct identity ({@link #verifyIds(long, int, ToLongFunction)}: 4 bytes per id).
 *
 * <p>A verifier is a mutable, reusable set of options; each read opens and closes its own consumer.
 */
public final class TopicVerifier {

    /** Default bound for one read. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

    private final String bootstrapServers;
    private final String topic;
    private IsolationLevel isolationLevel = IsolationLevel.READ_COMMITTED;
    private boolean keepRecords;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int maxDetails = 1000;
    private final Map<String, Object> consumerProperties = new LinkedHashMap<>();

    private TopicVerifier(String bootstrapServers, String topic) {
        this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /** A verifier for {@code topic}, reading {@code read_committed}. */
    public static TopicVerifier forTopic(String bootstrapServers, String topic) {
        return new TopicVerifier(bootstrapServers, topic);
    }

    /** A verifier for {@code topic} on {@code broker}. */
    public static TopicVerifier forTopic(KafkaBroker broker, String topic) {
        return new TopicVerifier(broker.bootstrapServers(), topic);
    }

    // ------------------------------------------------------------------------------------------ options

    /** {@code isolation.level=read_committed} (the default). */
    public TopicVerifier readCommitted() {
        return isolationLevel(IsolationLevel.READ_COMMITTED);
    }

    /** {@code isolation.level=read_uncommitted}: also reads records of aborted and open transactions. */
    public TopicVerifier readUncommitted() {
        return isolationLevel(IsolationLevel.READ_UNCOMMITTED);
    }

    public TopicVerifier isolationLevel(IsolationLevel level) {
        this.isolationLevel = Objects.requireNonNull(level, "level");
        return this;
    }

    /** Keep every record (key, value, headers, timestamp, partition, offset) in the report. Default false. */
    public TopicVerifier keepRecords(boolean keep) {
        this.keepRecords = keep;
        return this;
    }

    /** Upper bound for one read; past it the read fails with the progress made. Default 2 minutes. */
    public TopicVerifier timeout(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        return this;
    }

    /** At most this many entries in each of the report's duplicates, missing and unexpected samples. Default 1000. */
    public TopicVerifier maxDetails(int maxDetails) {
        if (maxDetails < 0) {
            throw new IllegalArgumentException("maxDetails must be >= 0: " + maxDetails);
        }
        this.maxDetails = maxDetails;
        return this;
    }

    /** An extra or overriding consumer property (e.g. security settings). */
    public TopicVerifier consumerProperty(String key, Object value) {
        consumerProperties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    // ------------------------------------------------------------------------------------------ reads

    /** Reads the topic to its end without comparing: counts, and records if kept. */
    public TopicReport read() {
        return readInto(null);
    }

    /**
     * Reads the topic and compares the record values, by content, with {@code expectedValues} (a multiset: a value
     * listed twice is expected twice). Identities in the report are {@link Bytes}.
     */
    public TopicReport verify(Iterable<byte[]> expectedValues) {
        Objects.requireNonNull(expectedValues, "expectedValues");
        List<Bytes> expected = new ArrayList<>();
        for (byte[] value : expectedValues) {
            expected.add(Bytes.wrap(value));
        }
        return readInto(new Tally.HashTally(expected, Bytes::wrap));
    }

    /**
     * Reads the topic and compares the identities of the record values, {@code identity.apply(valueBytes)}, with
     * {@code expectedIds} (a multiset). Identities must have content-based {@code equals}/{@code hashCode}, e.g.
     * {@code Long}, {@code String}, a record. The value passed to {@code identity} is null for tombstones.
     */
    public TopicReport verify(Iterable<?> expectedIds, Function<byte[], ?> identity) {
        Objects.requireNonNull(expectedIds, "expectedIds");
        return readInto(new Tally.HashTally(expectedIds, identity));
    }

    /**
     * Reads the topic and compares numeric ids, {@code idOf.applyAsLong(valueBytes)}, with the range
     * {@code [firstId, firstId + count)}, each expected exactly once. Uses an {@code int[count]} instead of a hash
     * map, so it suits millions of records (2M ids: 8 MB).
     */
    public TopicReport verifyIds(long firstId, int count, ToLongFunction<byte[]> idOf) {
        return readInto(new Tally.RangeTally(firstId, count, idOf));
    }

    /**
     * Reads the topic and checks only that no identity occurs twice: every identity is expected once when first
     * seen, so missing and unexpected are always 0.
     */
    public TopicReport verifyUnique(Function<byte[], ?> identity) {
        return readInto(new Tally.HashTally(identity));
    }

    private TopicReport readInto(Tally tally) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        Map<Integer, Long> perPartition = new TreeMap<>();
        List<TopicRecord> records = keepRecords ? new ArrayList<>() : null;
        long total = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, remaining(deadline));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("Topic " + topic + " does not exist (or has no partitions) on "
                        + bootstrapServers);
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition))
                    .collect(Collectors.toList());
            partitions.forEach(tp -> perPartition.put(tp.partition(), 0L));
            consumer.assign(partitions);
            Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions, remaining(deadline));
            consumer.seekToBeginning(partitions);

            Set<TopicPartition> pending = new HashSet<>();
            for (TopicPartition tp : partitions) {
                if (consumer.position(tp, remaining(deadline)) < endOffsets.get(tp)) {
                    pending.add(tp);
                }
            }
            Set<TopicPartition> done = new HashSet<>(partitions);
            done.removeAll(pending);
            consumer.pause(done);

            Map<Integer, Long> counts = new HashMap<>();
            while (!pending.isEmpty()) {
                if (System.nanoTime() >= deadline) {
                    throw new IllegalStateException("Reading topic " + topic + " timed out after " + timeout
                            + ": " + total + " records read; unfinished partitions (position/end): "
                            + progress(consumer, pending, endOffsets));
                }
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<byte[], byte[]> record : batch) {
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() >= endOffsets.get(tp)) {
                        continue; // written after the end offsets were captured
                    }
                    total++;
                    counts.merge(record.partition(), 1L, Long::sum);
                    if (tally != null) {
                        tally.seen(record.value());
                    }
                    if (records != null) {
                        records.add(new TopicRecord(record.partition(), record.offset(), record.timestamp(),
                                record.timestampType(), record.key(), record.value(),
                                List.of(record.headers().toArray())));
                    }
                }
                List<TopicPartition> finished = new ArrayList<>();
                for (TopicPartition tp : pending) {
                    if (consumer.position(tp, remaining(deadline)) >= endOffsets.get(tp)) {
                        finished.add(tp);
                    }
                }
                if (!finished.isEmpty()) {
                    pending.removeAll(finished);
                    consumer.pause(finished);
                }
            }
            counts.forEach((partition, count) -> perPartition.merge(partition, count, Long::sum));
        }
        if (records != null) {
            records.sort(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset));
        }
        Tally.Comparison comparison = tally == null ? null : tally.finish(maxDetails);
        return new TopicReport(topic, isolationLevel, total, perPartition, records, comparison,
                Duration.ofNanos(System.nanoTime() - started));
    }

    private static String progress(KafkaConsumer<?, ?> consumer, Set<TopicPartition> pending,
                                   Map<TopicPartition, Long> endOffsets) {
        return pending.stream()
                .sorted(Comparator.comparingInt(TopicPartition::partition))
                .map(tp -> tp.partition() + ":" + consumer.position(tp, Duration.ofSeconds(5)) + "/" + endOffsets.get(tp))
                .collect(Collectors.joining(", "));
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(1)));
    }

    private Properties consumerProperties() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "columnar-kafka-testkit-verifier");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel.toString().toLowerCase());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 * 1024 * 1024));
        p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(64 * 1024 * 1024));
        p.putAll(consumerProperties);
        return p;
    }

    // ------------------------------------------------------------------------------------------ transactions

    /** All transactions known to the broker(s) at {@code bootstrapServers}, sorted by transactional id. */
    public static List<TransactionInfo> listTransactions(String bootstrapServers) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "columnar-kafka-testkit-transactions");
        try (Admin admin = Admin.create(p)) {
            return listTransactions(admin);
        }
    }

    /** Transactions whose transactional id starts with {@code prefix}, sorted by transactional id. */
    public static List<TransactionInfo> listTransactions(String bootstrapServers, String prefix) {
        return listTransactions(bootstrapServers).stream().filter(t -> t.hasPrefix(prefix)).collect(Collectors.toList());
    }

    /** All transactions known to the cluster behind {@code admin}, sorted by transactional id. */
    public static List<TransactionInfo> listTransactions(Admin admin) {
        try {
            return admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
                    .map(t -> new TransactionInfo(t.transactionalId(), t.producerId(), t.state()))
                    .sorted(Comparator.comparing(TransactionInfo::transactionalId))
                    .collect(Collectors.toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while listing transactions", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not list transactions: " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Timed out listing transactions", e);
        }
    }

    /** Open transactions ({@link TransactionInfo#isOpen()}) whose transactional id starts with {@code prefix}. */
    public static List<TransactionInfo> openTransactions(String bootstrapServers, String prefix) {
        return listTransactions(bootstrapServers, prefix).stream().filter(TransactionInfo::isOpen)
                .collect(Collectors.toList());
    }
}
