package io.columnarkafka.client;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.ArrowRowTypes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Arrow batches to Kafka without Flink, in the bytes of Flink's own formats (the columnar encoders
 * of {@code columnar-kafka-format}, as the Flink sink uses them), with a lifecycle a host engine drives:
 *
 * <pre>{@code
 * ArrowKafkaSink sink = new ArrowKafkaSink("ROW<id BIGINT, name STRING>", config);
 * List<ConfigProblem> problems = sink.validate();       // every problem at once; nothing opened
 * sink.open();                                           // CREATED -> RUNNING
 * sink.beginEpoch(7);                                    // EXACTLY_ONCE: one Kafka transaction per epoch
 * sink.writeBatch(root);                                 // any number of batches
 * EpochDescriptor prepared = sink.preCommit(7);          // flushed; persist it with the checkpoint
 * sink.commitEpoch(prepared);                            // once the checkpoint is durable
 * sink.close();                                          // RUNNING -> CLOSED
 * }</pre>
 *
 * <p><b>Exactly once.</b> Epoch {@code n} is written in one transaction under the transactional id {@code
 * <prefix>-<n mod pool size>}, so ids never grow in number. {@link #open()} calls {@code initTransactions}
 * for every id of the pool, which fences zombie writers of the same ids and aborts their lingering
 * transactions, and aborts open transactions of the prefix's ids beyond the pool (a larger earlier pool). A process that crashed after {@link #preCommit} leaves a prepared transaction that a new
 * process commits (or aborts) from the persisted {@link EpochDescriptor} alone, <em>before</em> it opens
 * (opening aborts it): {@link #commitEpoch} and {@link #rollbackEpoch(EpochDescriptor)} in state CREATED.
 *
 * <p><b>Batches</b> stay the caller's: the sink reads each batch during {@link #writeBatch} and keeps
 * nothing of it, so it holds no Arrow memory. A batch that does not fit the row type, or a value the format
 * cannot encode, fails before any of its records is sent.
 *
 * <p>Not thread-safe: one thread drives a sink (the producer's I/O thread only reports to {@link
 * SinkListener#sendFailed}). Calls out of order (writing before {@code open()}, outside an epoch under
 * exactly-once, anything after {@code close()}) throw {@link IllegalStateException} saying what to call.
 */
public final class ArrowKafkaSink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ArrowKafkaSink.class);
    /** How many committed epoch numbers are remembered to make a repeated commit a no-op. */
    private static final int REMEMBERED_COMMITS = 64;

    private final RowType rowType;
    private final ArrowKafkaSinkConfig config;
    private final SinkSettings settings;
    private final SinkListener listener;

    private SinkState state = SinkState.CREATED;
    private BatchSender sender;
    private ExecutorService flusher;
    /** NONE and AT_LEAST_ONCE: the one producer. */
    private KafkaProducer<byte[], byte[]> producer;
    private SendTracker tracker;
    /** EXACTLY_ONCE: the pool, by slot. */
    private final List<TransactionSlot> slots = new ArrayList<>();
    private TransactionSlot writing;
    private long lastBegunEpoch = Long.MIN_VALUE;
    private final Deque<Long> committed = new ArrayDeque<>();

    /** A sink for batches of the given Arrow schema (see {@link ArrowRowTypes} for the Flink types it implies). */
    public ArrowKafkaSink(Schema schema, ArrowKafkaSinkConfig config) {
        this(ArrowRowTypes.rowType(schema), config, SinkListener.NONE);
    }

    /** A sink for batches of a Flink row type string, e.g. {@code ROW<id BIGINT, name STRING>}. */
    public ArrowKafkaSink(String rowType, ArrowKafkaSinkConfig config) {
        this(RowTypes.parse(rowType), config, SinkListener.NONE);
    }

    /** A sink for batches of {@code rowType}, reporting metrics to {@code listener}. */
    public ArrowKafkaSink(RowType rowType, ArrowKafkaSinkConfig config, SinkListener listener) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.config = Objects.requireNonNull(config, "config");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.settings = SinkSettings.parse(rowType, config);
    }

    // ------------------------------------------------------------------ declared without opening anything

    /**
     * Every problem of the configuration against the schema, at once: unknown keys, bad values, a format
     * that cannot encode a column, and, under exactly-once, a {@code transaction.timeout.ms} above the
     * broker's {@code transaction.max.timeout.ms} when the broker answers within a few seconds. Empty if
     * the sink can be opened.
     */
    public List<ConfigProblem> validate() {
        List<ConfigProblem> problems = new ArrayList<>(settings.problems);
        if (problems.isEmpty() && settings.deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            BrokerLimits.checkTransactionTimeout(settings, Duration.ofSeconds(5)).ifPresent(problems::add);
        }
        return problems;
    }

    public SinkState state() {
        return state;
    }

    /** The Arrow schema batches must have (columns by position). */
    public Schema schema() {
        return ArrowLayout.schema(rowType);
    }

    /** The Flink row type batches carry. */
    public RowType rowType() {
        return rowType;
    }

    public ArrowKafkaSinkConfig config() {
        return config;
    }

    /** Which encoders write values and keys, e.g. {@code json value (JsonBatchEncoder)}; planned, not opened. */
    public String encoding() {
        requireValid();
        return BatchSender.describe(settings);
    }

    /** What this configuration promises and what the caller must do at each epoch. */
    public SinkContract contract() {
        String ordering = "records of one batch are sent in row order; Kafka keeps that order per partition"
                + (settings.deliveryGuarantee == DeliveryGuarantee.NONE ? " unless a retry reorders them" : "");
        return switch (settings.deliveryGuarantee) {
            case NONE -> new SinkContract(DeliveryGuarantee.NONE, ordering, idempotent(), false,
                    "none: records are not waited for; call flush() before close() to send what is buffered");
            case AT_LEAST_ONCE -> new SinkContract(DeliveryGuarantee.AT_LEAST_ONCE, ordering, true, false,
                    "call flush(timeout) at each checkpoint and acknowledge the checkpoint only if it returns:"
                            + " it waits for every acknowledgement and throws the first send error; after a"
                            + " failure, replay from the last acknowledged checkpoint (duplicates possible)");
            case EXACTLY_ONCE -> new SinkContract(DeliveryGuarantee.EXACTLY_ONCE, ordering, true, true,
                    "beginEpoch(n) before writing epoch n; at the checkpoint preCommit(n) and persist the"
                            + " returned descriptor with it; once the checkpoint is durable commitEpoch(descriptor);"
                            + " on failure rollbackEpoch(n) and replay; after a restart commit the persisted"
                            + " descriptors before open(), which aborts the pool's other open transactions;"
                            + " at most " + settings.poolSize + " epochs (the pool size) may be begun and not yet"
                            + " committed; an epoch must end within transaction.timeout.ms ("
                            + settings.transactionTimeoutMs() + " ms)");
        };
    }

    private boolean idempotent() {
        return !"false".equalsIgnoreCase(settings.producerProperties.getProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG))
                && !"0".equals(settings.producerProperties.getProperty(ProducerConfig.ACKS_CONFIG))
                && !"1".equals(settings.producerProperties.getProperty(ProducerConfig.ACKS_CONFIG));
    }

    /**
     * How long one {@link #writeBatch} or {@link #flush} may take before the caller should treat the sink as
     * stuck: the producer's {@code delivery.timeout.ms} (a record is failed by then) plus {@code max.block.ms}
     * (how long {@code send} blocks on a full buffer or missing metadata).
     */
    public Duration suggestedWriteTimeout() {
        return Duration.ofMillis(producerMillis(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000)
                + producerMillis(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000));
    }

    /** How often a caller with no checkpoints of its own should flush or end an epoch ({@code sink.flush-interval}). */
    public Duration flushInterval() {
        return settings.flushInterval;
    }

    private long producerMillis(String key, long defaultValue) {
        String value = settings.producerProperties.getProperty(key);
        try {
            return value == null ? defaultValue : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return defaultValue;
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Connects: under exactly-once one producer per transactional id of the pool, each initialized (which
     * fences older producers of the id and aborts their open transaction); otherwise one producer.
     *
     * @throws IllegalStateException if not CREATED, or listing every configuration problem
     */
    public void open() {
        requireState(SinkState.CREATED, "open()");
        requireValid();
        List<ConfigProblem> problems = validate();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the sink's configuration has problems: " + problems);
        }
        try {
            if (settings.deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE) {
                for (int slot = 0; slot < settings.poolSize; slot++) {
                    String id = settings.transactionalId(slot);
                    KafkaProducer<byte[], byte[]> slotProducer = Producers.create(settings, id);
                    slots.add(new TransactionSlot(id, slotProducer, new SendTracker(listener)));
                    slotProducer.initTransactions();
                }
                LingeringTransactions.abortOutsidePool(settings, Duration.ofSeconds(30));
            } else {
                producer = Producers.create(settings, null);
                tracker = new SendTracker(listener);
            }
        } catch (Exception e) {
            closeProducers(Duration.ZERO);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new SinkException("could not open the sink: " + e.getMessage(), e);
        }
        // The producers parsed the size properties above: the limit is read as they read it.
        sender = new BatchSender(settings, listener, RecordSizeLimit.of(settings.producerProperties));
        flusher = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "arrow-kafka-sink-flush");
            thread.setDaemon(true);
            return thread;
        });
        state = SinkState.RUNNING;
    }

    /**
     * Encodes {@code batch} and hands one record per row to the producer. Under exactly-once the records
     * belong to the epoch begun last. Under none and at-least-once a send failure reported since the last
     * call is thrown here.
     */
    public WriteResult writeBatch(VectorSchemaRoot batch) {
        requireState(SinkState.RUNNING, "writeBatch()");
        Objects.requireNonNull(batch, "batch");
        if (settings.deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            if (writing == null) {
                throw new IllegalStateException("writeBatch() under exactly-once needs an epoch: call beginEpoch(n)"
                        + " first (the last epoch begun, " + describeEpoch(lastBegunEpoch) + ", was pre-committed"
                        + " or rolled back)");
            }
            writing.tracker.throwIfFailed("epoch " + writing.epoch);
            WriteResult result = send(batch, writing.producer, writing.tracker);
            writing.records += result.records();
            return result;
        }
        tracker.throwIfFailed("an earlier batch");
        return send(batch, producer, tracker);
    }

    private WriteResult send(VectorSchemaRoot batch, Producer<byte[], byte[]> target, SendTracker sendTracker) {
        try {
            return sender.send(batch, target, sendTracker);
        } catch (RuntimeException e) {
            listener.sendFailed(e);
            throw e;
        }
    }

    /**
     * Sends everything buffered and waits up to {@code timeout} for every acknowledgement; throws the first
     * send failure. Under exactly-once it flushes the epoch being written (which stays open).
     *
     * @throws org.apache.kafka.common.errors.TimeoutException if not every record was acknowledged in time
     *     (the flush goes on in the background; call again)
     */
    public void flush(Duration timeout) {
        requireState(SinkState.RUNNING, "flush()");
        if (settings.deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            if (writing != null) {
                boundedFlush(writing.producer, timeout);
                writing.tracker.throwIfFailed("epoch " + writing.epoch);
            }
            return;
        }
        boundedFlush(producer, timeout);
        tracker.throwIfFailed("flush");
    }

    private void boundedFlush(Producer<byte[], byte[]> target, Duration timeout) {
        Future<?> flush = flusher.submit(target::flush);
        try {
            flush.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException(
                    "flush did not complete within " + timeout + "; records are still in flight");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SinkException("interrupted while flushing", e);
        } catch (ExecutionException e) {
            listener.sendFailed(e.getCause());
            throw new SinkException("flush failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    // ------------------------------------------------------------------ epochs (exactly-once)

    /** Starts epoch {@code epoch}'s transaction; epochs must increase and the epoch's pool slot must be free. */
    public void beginEpoch(long epoch) {
        requireExactlyOnce("beginEpoch()");
        requireState(SinkState.RUNNING, "beginEpoch()");
        if (writing != null) {
            throw new IllegalStateException("beginEpoch(" + epoch + "): epoch " + writing.epoch
                    + " is still being written; preCommit(" + writing.epoch + ") or rollbackEpoch(" + writing.epoch
                    + ") first");
        }
        if (epoch <= lastBegunEpoch) {
            throw new IllegalStateException("beginEpoch(" + epoch + "): epochs must increase; " + lastBegunEpoch
                    + " was begun already");
        }
        TransactionSlot slot = slotOf(epoch);
        if (slot.phase != TransactionSlot.Phase.IDLE) {
            throw new IllegalStateException("beginEpoch(" + epoch + "): epoch " + slot.epoch + " is still prepared on "
                    + slot.transactionalId + "; commitEpoch or rollbackEpoch it first (at most "
                    + settings.poolSize + " epochs may be open, " + ArrowKafkaSinkConfig.TRANSACTIONAL_ID_POOL_SIZE + ")");
        }
        slot.begin(epoch);
        writing = slot;
        lastBegunEpoch = epoch;
    }

    /**
     * Flushes epoch {@code epoch} and waits for every acknowledgement (up to {@link #suggestedWriteTimeout()}),
     * then returns what is needed to commit or abort it from anywhere. The epoch is then prepared: not
     * visible to {@code read_committed} consumers until {@link #commitEpoch}.
     */
    public EpochDescriptor preCommit(long epoch) {
        requireExactlyOnce("preCommit()");
        requireState(SinkState.RUNNING, "preCommit()");
        if (writing == null || writing.epoch != epoch) {
            throw new IllegalStateException("preCommit(" + epoch + "): epoch " + epoch + " is not being written"
                    + (writing == null ? "; call beginEpoch(" + epoch + ") first" : "; epoch " + writing.epoch + " is"));
        }
        TransactionSlot slot = writing;
        boundedFlush(slot.producer, suggestedWriteTimeout());
        slot.tracker.throwIfFailed("epoch " + epoch + "; roll it back with rollbackEpoch(" + epoch + ")");
        slot.prepared = KafkaInternals.describe(slot.producer, epoch, slot.transactionalId, slot.records);
        slot.phase = TransactionSlot.Phase.PREPARED;
        writing = null;
        return slot.prepared;
    }

    /**
     * Commits a prepared epoch. Idempotent: committing an epoch again does nothing. In state CREATED (a new
     * process, before {@link #open()}) it resumes the transaction from the descriptor alone and commits it; a
     * transaction that the broker reports as already ended by this descriptor's producer is taken as
     * committed (a repeated commit after a crash during the first).
     */
    public void commitEpoch(EpochDescriptor descriptor) {
        Objects.requireNonNull(descriptor, "descriptor");
        requireExactlyOnce("commitEpoch()");
        if (committed.contains(descriptor.epoch())) {
            return;
        }
        if (state == SinkState.CREATED) {
            endPrepared(descriptor, true);
        } else {
            requireState(SinkState.RUNNING, "commitEpoch()");
            TransactionSlot slot = preparedSlot(descriptor, "commitEpoch");
            try {
                slot.producer.commitTransaction();
            } catch (RuntimeException e) {
                listener.sendFailed(e);
                throw new SinkException("commit of epoch " + descriptor.epoch() + " on " + slot.transactionalId
                        + " failed: " + e.getMessage(), e);
            }
            slot.idle();
        }
        remember(descriptor.epoch());
        listener.epochCommitted(descriptor.epoch());
    }

    /**
     * Aborts epoch {@code epoch} (being written or prepared). Idempotent: an epoch not open here (rolled back
     * already, never begun, or left by an earlier process and aborted by {@link #open()}) is a no-op.
     *
     * @throws IllegalStateException if the epoch was committed
     */
    public void rollbackEpoch(long epoch) {
        requireExactlyOnce("rollbackEpoch()");
        if (committed.contains(epoch)) {
            throw new IllegalStateException("rollbackEpoch(" + epoch + "): epoch " + epoch + " is committed");
        }
        if (state != SinkState.RUNNING) {
            return;
        }
        for (TransactionSlot slot : slots) {
            if (slot.phase != TransactionSlot.Phase.IDLE && slot.epoch == epoch) {
                abort(slot);
                listener.epochAborted(epoch);
                return;
            }
        }
    }

    /** Aborts a prepared epoch of an earlier process from its descriptor alone; only before {@link #open()}. */
    public void rollbackEpoch(EpochDescriptor descriptor) {
        requireExactlyOnce("rollbackEpoch()");
        requireState(SinkState.CREATED, "rollbackEpoch(descriptor)");
        endPrepared(descriptor, false);
        listener.epochAborted(descriptor.epoch());
    }

    private void abort(TransactionSlot slot) {
        try {
            slot.producer.abortTransaction();
        } finally {
            if (writing == slot) {
                writing = null;
            }
            slot.idle();
        }
    }

    /** Commits or aborts a prepared transaction of another process through a producer resumed from the descriptor. */
    private void endPrepared(EpochDescriptor descriptor, boolean commit) {
        requireValid();
        if (descriptor.records() == 0) {
            return; // an epoch without records never started a transaction on the broker
        }
        String action = commit ? "commit" : "abort";
        try (KafkaProducer<byte[], byte[]> resumed = Producers.create(settings, descriptor.transactionalId())) {
            KafkaInternals.resume(resumed, descriptor);
            if (commit) {
                resumed.commitTransaction();
            } else {
                resumed.abortTransaction();
            }
            LOG.info("{}ed prepared epoch {} ({})", action, descriptor.epoch(), descriptor);
        } catch (ProducerFencedException | InvalidProducerEpochException | InvalidTxnStateException e) {
            // As Flink's committer: the coordinator has moved past this producer epoch, so the transaction was
            // ended already (by the first attempt of this call, or by a newer producer of the id).
            LOG.warn("prepared epoch {} was already ended on the broker ({}); taking the {} as done",
                    descriptor.epoch(), e.toString(), action);
        } catch (RuntimeException e) {
            listener.sendFailed(e);
            throw new SinkException(action + " of prepared epoch " + descriptor + " failed: " + e.getMessage(), e);
        }
    }

    private TransactionSlot preparedSlot(EpochDescriptor descriptor, String call) {
        for (TransactionSlot slot : slots) {
            if (slot.phase == TransactionSlot.Phase.PREPARED && descriptor.equals(slot.prepared)) {
                return slot;
            }
        }
        throw new IllegalStateException(call + "(" + descriptor + "): this sink has no such prepared epoch; an"
                + " epoch prepared by an earlier process must be committed before open(), which aborts it");
    }

    private TransactionSlot slotOf(long epoch) {
        return slots.get((int) Math.floorMod(epoch, (long) slots.size()));
    }

    private void remember(long epoch) {
        committed.addLast(epoch);
        if (committed.size() > REMEMBERED_COMMITS) {
            committed.removeFirst();
        }
    }

    // ------------------------------------------------------------------ close

    /**
     * Closes the sink. Under exactly-once every epoch not committed is rolled back first (commit prepared
     * epochs before closing), so no transaction of this sink stays open; otherwise buffered records are sent,
     * waiting up to {@link #suggestedWriteTimeout()}. Idempotent; a CREATED sink just becomes CLOSED.
     */
    @Override
    public void close() {
        if (state == SinkState.CLOSED) {
            return;
        }
        state = SinkState.CLOSED;
        RuntimeException failure = null;
        for (TransactionSlot slot : slots) {
            if (slot.phase != TransactionSlot.Phase.IDLE) {
                long epoch = slot.epoch;
                try {
                    abort(slot);
                    listener.epochAborted(epoch);
                } catch (ProducerFencedException e) {
                    // A newer producer of the id took over and aborted the transaction itself.
                    LOG.info("epoch {} on {} was fenced by a newer producer; nothing to abort", epoch, slot);
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
        }
        closeProducers(suggestedWriteTimeout());
        if (flusher != null) {
            flusher.shutdownNow();
        }
        if (failure != null) {
            throw new SinkException("close could not abort an open epoch: " + failure.getMessage(), failure);
        }
    }

    private void closeProducers(Duration timeout) {
        for (TransactionSlot slot : slots) {
            slot.producer.close(timeout);
        }
        slots.clear();
        if (producer != null) {
            producer.close(timeout);
            producer = null;
        }
    }

    // ------------------------------------------------------------------ checks

    private void requireState(SinkState required, String call) {
        if (state != required) {
            String hint = switch (state) {
                case CREATED -> "call open() first";
                case RUNNING -> "the sink is open already";
                case CLOSED -> "the sink is closed; create a new one";
            };
            throw new IllegalStateException(call + " needs state " + required + " but the sink is " + state + ": " + hint);
        }
    }

    private void requireExactlyOnce(String call) {
        if (settings.deliveryGuarantee != DeliveryGuarantee.EXACTLY_ONCE) {
            throw new IllegalStateException(call + " is for " + ArrowKafkaSinkConfig.DELIVERY_GUARANTEE
                    + " exactly-once; this sink is " + settings.deliveryGuarantee.spelling() + " (use flush())");
        }
    }

    private void requireValid() {
        if (!settings.isValid()) {
            throw new IllegalStateException("the sink's configuration has problems: " + settings.problems);
        }
    }

    private static String describeEpoch(long epoch) {
        return epoch == Long.MIN_VALUE ? "none" : Long.toString(epoch);
    }

    @Override
    public String toString() {
        return "ArrowKafkaSink[" + state + ", " + settings.deliveryGuarantee.spelling() + ", "
                + (settings.topic != null ? settings.topic : "topic per row") + "]";
    }
}
