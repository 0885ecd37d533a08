package io.columnarkafka.client;

import io.columnarkafka.client.decode.ChunkDecoder;
import io.columnarkafka.client.decode.KafkaDecodeException;
import io.columnarkafka.client.decode.RecordChunk;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads Kafka records into Arrow batches without Flink, in the values Flink's own formats give (the columnar
 * decoders of {@code columnar-kafka-format}, through the same {@link ChunkDecoder} as the Flink source), for a
 * program that wants Arrow from Kafka: a Flight server, a DataFusion front-end, an exporter.
 *
 * <pre>{@code
 * ArrowKafkaSource source = new ArrowKafkaSource(config);
 * List<ConfigProblem> problems = source.validate();     // every problem at once; nothing opened
 * source.open();                                         // CREATED -> RUNNING
 * for (ArrowKafkaBatch batch : source.poll(Duration.ofSeconds(1))) {
 *     try (batch) { use(batch.root()); }                 // the caller owns each batch
 *     source.commit(batch);                              // offset last + 1, when the caller says so
 * }
 * source.close();                                        // RUNNING -> CLOSED
 * }</pre>
 *
 * <p><b>Batches.</b> {@link #poll} returns at most one batch per partition per call, never spanning partitions:
 * the partition's records of that poll, up to {@code scan.batch.max-rows} records and {@code scan.batch.max-bytes}
 * key and value bytes; records beyond the caps are kept (their partition paused meanwhile) and make the next poll's
 * batch of that partition. Each batch is decoded as Flink's Kafka table source decodes a record
 * ({@code DynamicKafkaDeserializationSchema}): the value by the value format, with key fields the key by the key
 * format, and a record gives a row only if both give one; a record with a null value (a tombstone) gives the row
 * the value format makes of null, which is none for every format. Every batch is allocated from this source's
 * bounded allocator and owned by the caller ({@link ArrowKafkaBatch#close()}).
 *
 * <p><b>Offsets.</b> The source never commits on its own ({@code enable.auto.commit} is false):
 * {@link #commit(ArrowKafkaBatch)} commits the offset after a batch, once the caller says it has processed it, so
 * at-least-once and exactly-once (with the offsets in the caller's own transaction or checkpoint, {@link #seek} on
 * restart) belong to the caller. {@link #position} is the offset of the next record a poll returns.
 *
 * <p><b>Bounded.</b> With {@code scan.bounded.mode} each partition ends at a stopping offset (Flink's modes:
 * its end offset when this source first sees it, the group's commit, given offsets, a timestamp): no record at or
 * past it is returned, the partition is then paused and in {@link #finishedPartitions()}, and {@link #endOfInput()}
 * says when every partition assigned to this source has ended.
 *
 * <p><b>Rebalances.</b> A {@link PartitionListener} ({@link #setPartitionListener}) is told of partitions given and
 * taken away inside {@code poll}; committing there what was processed of revoked partitions leaves nothing to be
 * read twice by their next owner.
 *
 * <p><b>Bad input.</b> A record the format rejects fails the poll with a {@link KafkaDecodeException} naming its
 * topic, partition, offset and field; the poll returns nothing, frees what it decoded, and leaves every partition
 * it read at the first offset it read, so {@code seek(partition, e.offset() + 1)} passes over the record. With the
 * format's {@code ignore-parse-errors} the decoders skip such records exactly as Flink's deserializers do.
 *
 * <p>Not thread-safe, as Kafka's consumer: one thread calls the source. Batches may be closed on any thread.
 */
public final class ArrowKafkaSource implements AutoCloseable {
    private final ArrowKafkaSourceConfig config;
    private final SourceSettings settings;
    private final BufferAllocator parentAllocator;

    /** Volatile: a batch closed on another thread reads it to close the allocator after the source. */
    private volatile SourceState state = SourceState.CREATED;
    private ChunkDecoder decoder;
    private BufferAllocator allocator;
    private KafkaConsumer<ByteBuffer, ByteBuffer> consumer;
    /** Partitions given their starting offset already: later assignments of them resume where the group is. */
    private final Set<TopicPartition> started = new HashSet<>();
    /** Records polled beyond a batch's caps, by partition, returned first by the next poll; their partition is paused. */
    private final Map<TopicPartition, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> leftovers = new HashMap<>();
    /** Partitions taken away during the current poll (maybe given back at once, then read again from the commit). */
    private final Set<TopicPartition> revokedDuringPoll = new HashSet<>();
    /** Stopping offset (exclusive) of each partition resolved so far; empty when unbounded. */
    private final Map<TopicPartition, Long> stops = new HashMap<>();
    /** Assigned partitions read up to their stopping offset, paused since. */
    private final Set<TopicPartition> finished = new HashSet<>();
    private PartitionListener partitionListener = new PartitionListener() {};
    /** Set while {@link #close()} closes the consumer: the revocation it calls back may still commit. */
    private boolean closing;
    /** Batches handed out and not yet closed, and the lock of the allocator's close with the last of them. */
    private int openBatches;
    private final Object allocatorLock = new Object();

    /** A source with an allocator of its own, bounded by {@code scan.allocator-limit}. */
    public ArrowKafkaSource(ArrowKafkaSourceConfig config) {
        this(config, null);
    }

    /**
     * A source whose allocator is a child of {@code parent} (bounded by {@code scan.allocator-limit}), so a host
     * accounts for the source's memory with its own; the child closes at zero once the source and every batch are.
     */
    public ArrowKafkaSource(ArrowKafkaSourceConfig config, BufferAllocator parent) {
        this.config = Objects.requireNonNull(config, "config");
        this.settings = SourceSettings.parse(config);
        this.parentAllocator = parent;
    }

    // ------------------------------------------------------------------ declared without opening anything

    /**
     * Every problem of the configuration, at once: unknown keys, missing or bad values, consumer properties Kafka
     * does not know or the source sets itself, key fields that are not fields, options a format rejects and fields
     * it cannot decode (the decoders are planned here). Empty if the source can be opened.
     */
    public List<ConfigProblem> validate() {
        return List.copyOf(settings.problems);
    }

    public SourceState state() {
        return state;
    }

    public ArrowKafkaSourceConfig config() {
        return config;
    }

    /** The Flink row type of the batches. */
    public RowType rowType() {
        requireValid();
        return settings.rowType;
    }

    /**
     * The Arrow schema of the batches: each field as its decoder lays it out (json and csv keep TIMESTAMP values
     * to the nanosecond as epoch milliseconds plus nanoseconds of the millisecond, {@code
     * io.columnarkafka.format.arrow.WideTimestamps}; the other formats in Arrow's timestamp units).
     */
    public Schema schema() {
        requireValid();
        return decoder().schema();
    }

    /** Which decoders read values and keys, e.g. {@code json value (JsonBatchDecoder)}; planned, not opened. */
    public String decoding() {
        requireValid();
        return settings.decoding;
    }

    /**
     * The listener told of partitions given and taken away by the group (and, at {@link #close()}, of those this
     * source leaves with): the place to commit what was processed before another member takes a partition. Before
     * {@link #open()}.
     */
    public void setPartitionListener(PartitionListener listener) {
        requireState(SourceState.CREATED, "set the partition listener before open()");
        partitionListener = Objects.requireNonNull(listener, "listener");
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * CREATED → RUNNING: creates the allocator and the consumer, then subscribes to the topics (as a member of
     * the group) or assigns the partitions, each starting as {@code scan.startup.mode} says the first time this
     * source is given it.
     *
     * @throws IllegalArgumentException listing every problem if {@link #validate()} finds any
     */
    public void open() {
        requireState(SourceState.CREATED, "open() was already called");
        requireValid();
        decoder = decoder();
        allocator = parentAllocator == null
                ? new RootAllocator(settings.allocatorLimit)
                : parentAllocator.newChildAllocator("arrow-kafka-source", 0, settings.allocatorLimit);
        try {
            consumer = new KafkaConsumer<>(settings.consumerProperties);
            if (settings.topicPattern != null) {
                consumer.subscribe(settings.topicPattern, new Rebalance());
            } else if (settings.partitions.isEmpty()) {
                // the stopping offsets of every partition there is now, "at start", not at the first assignment
                resolveStops(partitionsOf(settings.topics));
                consumer.subscribe(settings.topics, new Rebalance());
            } else {
                resolveStops(settings.partitions);
                consumer.assign(settings.partitions);
                start(settings.partitions);
            }
        } catch (RuntimeException e) {
            if (consumer != null) {
                consumer.close(Duration.ZERO);
            }
            allocator.close();
            throw e;
        }
        state = SourceState.RUNNING;
    }

    /**
     * Polls Kafka for up to {@code timeout} (not at all while records beyond an earlier batch's caps wait) and
     * decodes what came, one batch per partition. Empty when nothing came.
     *
     * @throws KafkaDecodeException for a record the format rejects; nothing is returned and every partition of
     *     this poll is back at its first offset read
     * @throws IllegalStateException when a batch does not fit the allocator's limit (the same rewind applies)
     */
    public List<ArrowKafkaBatch> poll(Duration timeout) {
        requireState(SourceState.RUNNING, state == SourceState.CREATED ? "call open() first"
                : "the source is closed; create a new one");
        Map<TopicPartition, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> input = new LinkedHashMap<>(leftovers);
        leftovers.clear();
        revokedDuringPoll.clear();
        boolean wait = input.isEmpty() && !endOfInput();
        ConsumerRecords<ByteBuffer, ByteBuffer> polled = consumer.poll(wait ? timeout : Duration.ZERO);
        // a rebalance inside poll may have taken away partitions whose leftovers were already in hand; one given
        // back at once resumes from the group's commit, so its leftovers would be read twice
        input.keySet().removeAll(revokedDuringPoll);
        input.keySet().retainAll(consumer.assignment());
        for (TopicPartition partition : polled.partitions()) {
            input.computeIfAbsent(partition, p -> new ArrayList<>()).addAll(polled.records(partition));
        }
        if (!stops.isEmpty()) {
            input.entrySet().removeIf(entry -> !beforeStop(entry.getKey(), entry.getValue()));
        }
        List<ArrowKafkaBatch> batches = new ArrayList<>(input.size());
        try {
            for (Map.Entry<TopicPartition, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> entry : input.entrySet()) {
                batches.add(decode(entry.getKey(), entry.getValue()));
            }
            if (settings.boundedMode != SourceSettings.BoundedMode.UNBOUNDED) {
                finishReachedPartitions();
            }
            return batches;
        } catch (RuntimeException e) {
            batches.forEach(ArrowKafkaBatch::close);
            for (Map.Entry<TopicPartition, List<ConsumerRecord<ByteBuffer, ByteBuffer>>> entry : input.entrySet()) {
                seek(entry.getKey(), entry.getValue().get(0).offset());
            }
            throw e;
        }
    }

    /**
     * Drops the records of {@code partition} at or past its stopping offset (fetched in the same poll as those
     * before it); false when none is left.
     */
    private boolean beforeStop(TopicPartition partition, List<ConsumerRecord<ByteBuffer, ByteBuffer>> records) {
        Long stop = stops.get(partition);
        if (stop == null) {
            return true;
        }
        records.removeIf(record -> record.offset() >= stop);
        return !records.isEmpty();
    }

    /**
     * Pauses each assigned partition whose next offset reached its stopping offset: read to its end, or empty
     * from the start (the next offset may pass the last record's, over a transaction marker).
     */
    private void finishReachedPartitions() {
        for (TopicPartition partition : consumer.assignment()) {
            Long stop = stops.get(partition);
            if (stop != null && !finished.contains(partition) && !leftovers.containsKey(partition)
                    && consumer.position(partition) >= stop) {
                finished.add(partition);
                consumer.pause(List.of(partition));
            }
        }
    }

    /**
     * The assigned partitions read up to their stopping offset ({@code scan.bounded.mode}): none of their records
     * at or past it is returned, and they are no longer fetched. Empty when unbounded.
     */
    public Set<TopicPartition> finishedPartitions() {
        requireRunning();
        Set<TopicPartition> ended = new HashSet<>(finished);
        ended.retainAll(consumer.assignment());
        return ended;
    }

    /**
     * Whether the bounded input of this source has ended: {@code scan.bounded.mode} is set, the source has
     * partitions and every one of them is read up to its stopping offset. Always false when unbounded, and false
     * while a group member has no partitions (before its first assignment, or with more members than partitions).
     * A poll then returns at once, with nothing.
     */
    public boolean endOfInput() {
        requireRunning();
        Set<TopicPartition> assigned = consumer.assignment();
        return settings.boundedMode != SourceSettings.BoundedMode.UNBOUNDED && !assigned.isEmpty()
                && finished.containsAll(assigned);
    }

    /** The first records of {@code records} that fit the caps as one batch; the rest wait, their partition paused. */
    private ArrowKafkaBatch decode(TopicPartition partition, List<ConsumerRecord<ByteBuffer, ByteBuffer>> records) {
        RecordChunk chunk = new RecordChunk(partition, Math.min(records.size(), settings.maxBatchRows));
        int taken = 0;
        for (ConsumerRecord<ByteBuffer, ByteBuffer> record : records) {
            long size = RecordChunk.sizeOf(record);
            if (!chunk.hasRoomFor(size, settings.maxBatchRows, settings.maxBatchBytes)) {
                break;
            }
            chunk.add(record, size);
            taken++;
        }
        if (taken < records.size()) {
            leftovers.put(partition, new ArrayList<>(records.subList(taken, records.size())));
            consumer.pause(List.of(partition));
        } else {
            consumer.resume(List.of(partition));
        }
        VectorSchemaRoot rows = decoder.decode(chunk, allocator);
        if (rows == null) {
            rows = VectorSchemaRoot.create(decoder.schema(), allocator);
            rows.setRowCount(0);
        }
        synchronized (allocatorLock) {
            openBatches++;
        }
        return new ArrowKafkaBatch(rows, partition, chunk.offset(0), chunk.lastOffset(), chunk.size(), this::batchClosed);
    }

    /**
     * Commits, synchronously, the offset after {@code batch} ({@link ArrowKafkaBatch#nextOffset()}) for its
     * partition in the group; call it once the batch's rows are processed (closed or not).
     */
    public void commit(ArrowKafkaBatch batch) {
        commit(List.of(batch));
    }

    /** Commits, synchronously, for each partition the offset after the last of {@code batches} of it. */
    public void commit(Collection<ArrowKafkaBatch> batches) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ArrowKafkaBatch batch : batches) {
            offsets.merge(batch.topicPartition(), new OffsetAndMetadata(batch.nextOffset()),
                    (a, b) -> a.offset() >= b.offset() ? a : b);
        }
        commit(offsets);
    }

    /** Commits, synchronously, these offsets (each the next record to read, as Kafka's) for the group. */
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        requireRunning();
        if (settings.groupId == null || settings.groupId.isBlank()) {
            throw new IllegalStateException("committing needs a consumer group: set " + ArrowKafkaSourceConfig.GROUP_ID);
        }
        consumer.commitSync(offsets);
    }

    /** The group's committed offsets of {@code partitions} (absent: none committed). */
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        requireRunning();
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>(consumer.committed(partitions));
        committed.values().removeIf(Objects::isNull);
        return committed;
    }

    /**
     * Moves {@code partition} (assigned to this source) so the next poll starts at {@code offset}; a bounded
     * partition read to its stopping offset is read again from there.
     */
    public void seek(TopicPartition partition, long offset) {
        requireRunning();
        leftovers.remove(partition);
        finished.remove(partition);
        consumer.seek(partition, offset);
        consumer.resume(List.of(partition));
    }

    /** The offset of the next record a poll returns for {@code partition} (assigned to this source). */
    public long position(TopicPartition partition) {
        requireRunning();
        List<ConsumerRecord<ByteBuffer, ByteBuffer>> waiting = leftovers.get(partition);
        return waiting != null ? waiting.get(0).offset() : consumer.position(partition);
    }

    /** The partitions assigned to this source now. */
    public Set<TopicPartition> assignment() {
        requireRunning();
        return consumer.assignment();
    }

    /**
     * RUNNING → CLOSED (CREATED → CLOSED without opening anything): closes the consumer without committing (a
     * group member leaves the group: its {@link PartitionListener#revoked} is called first and may commit); the
     * allocator closes now if every batch is closed, else when the last one is. Idempotent.
     */
    @Override
    public void close() {
        if (state == SourceState.CLOSED || closing) {
            return;
        }
        if (state == SourceState.CREATED) {
            state = SourceState.CLOSED;
            return;
        }
        closing = true;
        leftovers.clear();
        try {
            consumer.close();
        } finally {
            state = SourceState.CLOSED;
            closeAllocatorIfIdle();
        }
    }

    private void batchClosed() {
        synchronized (allocatorLock) {
            openBatches--;
        }
        closeAllocatorIfIdle();
    }

    private void closeAllocatorIfIdle() {
        synchronized (allocatorLock) {
            if (state == SourceState.CLOSED && openBatches == 0 && allocator != null) {
                if (decoder != null) {
                    decoder.releaseRecycled(); // a chunk that gave no row leaves the decoder's vectors kept
                }
                allocator.close();
                allocator = null;
            }
        }
    }

    /** Bytes the batches not yet closed hold (0 once closed). */
    public long allocatedBytes() {
        synchronized (allocatorLock) {
            return allocator == null ? 0 : allocator.getAllocatedMemory();
        }
    }

    // ------------------------------------------------------------------ starting offsets

    /** Gives each partition not started yet its starting offset, as {@code scan.startup.mode} says. */
    private void start(Collection<TopicPartition> assigned) {
        List<TopicPartition> fresh = assigned.stream().filter(started::add).toList();
        if (fresh.isEmpty()) {
            return;
        }
        resolveStops(fresh.stream().filter(p -> !stops.containsKey(p)).toList());
        switch (settings.startupMode) {
            case EARLIEST -> consumer.seekToBeginning(fresh);
            case LATEST -> consumer.seekToEnd(fresh);
            case COMMITTED -> { } // the consumer starts from the group's commit, else auto.offset.reset
            case SPECIFIC -> {
                for (TopicPartition partition : fresh) {
                    Long offset = settings.specificOffsets.get(partition.partition());
                    if (offset != null) {
                        consumer.seek(partition, offset);
                    }
                }
            }
            case TIMESTAMP -> {
                Map<TopicPartition, Long> times = new HashMap<>();
                fresh.forEach(p -> times.put(p, settings.startupTimestamp));
                Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times);
                List<TopicPartition> none = new ArrayList<>();
                for (TopicPartition partition : fresh) {
                    OffsetAndTimestamp at = found.get(partition);
                    if (at == null) {
                        none.add(partition);
                    } else {
                        consumer.seek(partition, at.offset());
                    }
                }
                consumer.seekToEnd(none);
            }
            default -> throw new IllegalStateException("startup mode " + settings.startupMode);
        }
    }

    private List<TopicPartition> partitionsOf(List<String> topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        if (settings.boundedMode != SourceSettings.BoundedMode.UNBOUNDED) {
            for (String topic : topics) {
                for (PartitionInfo info : consumer.partitionsFor(topic)) {
                    partitions.add(new TopicPartition(topic, info.partition()));
                }
            }
        }
        return partitions;
    }

    /**
     * The stopping offsets of {@code partitions}, as Flink's {@code OffsetsInitializer} of each {@code
     * scan.bounded.mode} finds them (end offsets honour {@code isolation.level}, as the consumer's).
     */
    private void resolveStops(List<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        switch (settings.boundedMode) {
            case UNBOUNDED -> { }
            case LATEST -> stops.putAll(consumer.endOffsets(partitions));
            case COMMITTED -> {
                Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(partitions));
                for (TopicPartition partition : partitions) {
                    OffsetAndMetadata offset = committed.get(partition);
                    if (offset == null) {
                        throw new IllegalStateException("no committed offset of " + partition + " for the group '"
                                + settings.groupId + "' to stop at (" + ArrowKafkaSourceConfig.BOUNDED_MODE
                                + " group-offsets), as Flink's source fails");
                    }
                    stops.put(partition, offset.offset());
                }
            }
            case SPECIFIC -> {
                List<TopicPartition> unspecified = new ArrayList<>();
                for (TopicPartition partition : partitions) {
                    Long offset = settings.boundedOffsets.get(partition.partition());
                    if (offset == null) {
                        unspecified.add(partition);
                    } else {
                        stops.put(partition, offset);
                    }
                }
                if (!unspecified.isEmpty()) {
                    Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(unspecified));
                    Map<TopicPartition, Long> earliest = consumer.beginningOffsets(unspecified);
                    for (TopicPartition partition : unspecified) {
                        OffsetAndMetadata offset = committed.get(partition);
                        stops.put(partition, offset != null ? offset.offset() : earliest.get(partition));
                    }
                }
            }
            case TIMESTAMP -> {
                Map<TopicPartition, Long> times = new HashMap<>();
                partitions.forEach(p -> times.put(p, settings.boundedTimestamp));
                Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times);
                Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
                for (TopicPartition partition : partitions) {
                    OffsetAndTimestamp at = found.get(partition);
                    stops.put(partition, at != null ? at.offset() : ends.get(partition));
                }
            }
            default -> throw new IllegalStateException("bounded mode " + settings.boundedMode);
        }
    }

    /**
     * Group assignments: a partition gets its starting (and stopping) offset the first time; one taken away loses
     * the records waiting for it (its next owner reads them from the group's committed offset). The caller's
     * {@link PartitionListener} is told after.
     */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            forget(partitions);
            partitionListener.revoked(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            forget(partitions);
            partitionListener.lost(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            start(partitions);
            partitionListener.assigned(partitions);
        }

        private void forget(Collection<TopicPartition> partitions) {
            leftovers.keySet().removeAll(partitions);
            finished.removeAll(partitions);
            revokedDuringPoll.addAll(partitions);
        }
    }

    // ------------------------------------------------------------------ checks

    private ChunkDecoder decoder() {
        return decoder != null ? decoder : new ChunkDecoder(settings.spec);
    }

    private void requireValid() {
        if (!settings.problems.isEmpty()) {
            throw new IllegalArgumentException("the source's configuration has problems: " + settings.problems);
        }
    }

    private void requireRunning() {
        requireState(SourceState.RUNNING, state == SourceState.CREATED ? "call open() first"
                : "the source is closed; create a new one");
    }

    private void requireState(SourceState expected, String otherwise) {
        if (state != expected) {
            throw new IllegalStateException(otherwise);
        }
    }

    @Override
    public String toString() {
        return "ArrowKafkaSource[" + state + ", " + config + "]";
    }
}
