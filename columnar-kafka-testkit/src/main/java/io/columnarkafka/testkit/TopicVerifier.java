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
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
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
 * <p>How it reads: an Admin client captures the end offsets first; then a consumer without a group
 * ({@code assign()}, no offsets committed) seeks every partition to the beginning and polls until each position
 * reaches its captured end offset; records at or past it (written meanwhile) are ignored. With the default
 * {@code isolation.level=read_committed} the end offset is the last stable offset (LSO), taken once no transaction
 * is open on the topic (see {@link #awaitStableOffsets(Duration)}), so records of aborted transactions are skipped
 * and a transaction left open stops the read at its first record instead of hanging. With
 * {@link #readUncommitted()} the end offset is the high watermark and aborted or open transactions' records are
 * read too.
 *
 * <p>Memory: without {@link #keepRecords(boolean)}, values are not retained; the comparison holds one entry per
 * distinct identity ({@link #verifyIds(long, int, ToLongFunction)}: 4 bytes per id).
 *
 * <p>A verifier is a mutable, reusable set of options; each read opens and closes its own consumer.
 */
public final class TopicVerifier {

    /** Default bound for one read. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);
    /** Default bound for waiting, before a read_committed read, until no partition has an open transaction. */
    public static final Duration DEFAULT_STABLE_WAIT = Duration.ofSeconds(10);

    private final String bootstrapServers;
    private final String topic;
    private IsolationLevel isolationLevel = IsolationLevel.READ_COMMITTED;
    private boolean keepRecords;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int maxDetails = 1000;
    private Duration stableWait = DEFAULT_STABLE_WAIT;
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

    /**
     * Before a {@code read_committed} read, wait up to this long until every partition's last stable offset (LSO)
     * equals its high watermark, i.e. no transaction is open on it. Default 10 s; zero reads at once.
     *
     * <p>Why: {@code commitTransaction()} returns once the coordinator has logged the decision; the commit markers
     * that release the records to {@code read_committed} readers are written just after. A read started right after
     * a commit would otherwise end at a stale LSO and miss records. If a transaction stays open past this wait (a
     * lingering or hung producer), the read ends at the LSO and the report names those partitions in
     * {@link TopicReport#partitionsWithOpenTransactions()}.
     */
    public TopicVerifier awaitStableOffsets(Duration maxWait) {
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative: " + maxWait);
        }
        this.stableWait = maxWait;
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

    // ------------------------------------------------------------------------------------------ timeline

    /**
     * Starts sampling the topic's {@code read_committed} output in the background, for a fault test's timeline: mark
     * faults on it, then read when the output resumed (see {@link OutputTimeline}). The caller closes it.
     */
    public OutputTimeline startTimeline() {
        return new OutputTimeline(bootstrapServers, topic, OutputTimeline.DEFAULT_SAMPLE_INTERVAL);
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
        Iterable<Bytes> expected = () -> new java.util.Iterator<>() {
            private final java.util.Iterator<byte[]> values = expectedValues.iterator();

            @Override
            public boolean hasNext() {
                return values.hasNext();
            }

            @Override
            public Bytes next() {
                return Bytes.wrap(values.next());
            }
        };
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
        EndOffsets ends = captureEndOffsets(deadline);
        List<TopicPartition> partitions = ends.partitions;
        Map<TopicPartition, Long> endOffsets = ends.endOffsets;
        partitions.forEach(tp -> perPartition.put(tp.partition(), 0L));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            consumer.assign(partitions);
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
                ends.partitionsWithOpenTransactions, Duration.ofNanos(System.nanoTime() - started));
    }

    private record EndOffsets(List<TopicPartition> partitions, Map<TopicPartition, Long> endOffsets,
                              Set<Integer> partitionsWithOpenTransactions) {
    }

    /**
     * The partitions, and the offsets to read up to: the last stable offsets for read_committed (after waiting up to
     * {@link #stableWait} for them to reach the high watermarks), the high watermarks for read_uncommitted.
     */
    private EndOffsets captureEndOffsets(long deadline) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, "columnar-kafka-testkit-verifier-admin"))) {
            TopicDescription description;
            try {
                description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(remaining(deadline).toMillis(), TimeUnit.MILLISECONDS).get(topic);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new IllegalStateException("Topic " + topic + " does not exist on " + bootstrapServers);
                }
                throw new IllegalStateException("Could not describe topic " + topic + ": " + e.getCause(), e.getCause());
            }
            List<TopicPartition> partitions = description.partitions().stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition))
                    .collect(Collectors.toList());
            long stableDeadline = Math.min(deadline, System.nanoTime() + stableWait.toNanos());
            while (true) {
                Map<TopicPartition, Long> highWatermarks = listOffsets(admin, partitions, IsolationLevel.READ_UNCOMMITTED,
                        deadline);
                Map<TopicPartition, Long> stable = listOffsets(admin, partitions, IsolationLevel.READ_COMMITTED,
                        deadline);
                Set<Integer> open = new TreeSet<>();
                for (TopicPartition tp : partitions) {
                    if (stable.get(tp) < highWatermarks.get(tp)) {
                        open.add(tp.partition());
                    }
                }
                boolean committed = isolationLevel == IsolationLevel.READ_COMMITTED;
                if (!committed || open.isEmpty() || System.nanoTime() >= stableDeadline) {
                    return new EndOffsets(partitions, committed ? stable : highWatermarks, open);
                }
                sleepMillis(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading end offsets of " + topic, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Timed out reading end offsets of " + topic, e);
        }
    }

    private static Map<TopicPartition, Long> listOffsets(Admin admin, List<TopicPartition> partitions,
                                                         IsolationLevel level, long deadline)
            throws InterruptedException, java.util.concurrent.TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, OffsetSpec.latest()));
        try {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result = admin
                    .listOffsets(request, new ListOffsetsOptions(level)).all()
                    .get(remaining(deadline).toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, Long> offsets = new HashMap<>();
            result.forEach((tp, info) -> offsets.put(tp, info.offset()));
            return offsets;
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not list offsets of " + partitions + ": " + e.getCause(),
                    e.getCause());
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
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
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, "columnar-kafka-testkit-transactions"))) {
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

    /**
     * Waits up to {@code maxWait} until no transaction whose id starts with {@code prefix} is open, and returns the
     * ones still open then (empty when all completed). Use this rather than {@link #openTransactions} right after a
     * commit or abort: the coordinator moves {@code PREPARE_COMMIT}/{@code PREPARE_ABORT} to {@code COMPLETE_*}
     * only after writing the markers, shortly after {@code commitTransaction()} returned.
     */
    public static List<TransactionInfo> awaitNoOpenTransactions(String bootstrapServers, String prefix,
                                                                Duration maxWait) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, "columnar-kafka-testkit-transactions"))) {
            while (true) {
                List<TransactionInfo> open = listTransactions(admin).stream()
                        .filter(t -> t.hasPrefix(prefix) && t.isOpen())
                        .collect(Collectors.toList());
                if (open.isEmpty() || System.nanoTime() >= deadline) {
                    return open;
                }
                sleepMillis(20);
            }
        }
    }

    private static Properties adminProperties(String bootstrapServers, String clientId) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        return p;
    }
}
