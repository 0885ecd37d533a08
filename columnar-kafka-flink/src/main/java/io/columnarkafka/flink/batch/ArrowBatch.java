package io.columnarkafka.flink.batch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.util.Collector;

/**
 * One Arrow record batch travelling through a Flink job as a single stream element.
 *
 * <p><b>Ownership.</b> A batch owns its memory, and ownership moves downstream with the element: the
 * operator that emits a batch gives it up, and the consumer (the encode operator) closes it when it has
 * encoded it. {@link #close()} frees everything the batch holds and may be called more than once. A
 * batch has exactly one consumer; it must not be emitted twice or kept after emitting.
 *
 * <p><b>Two forms.</b>
 * <ul>
 *   <li><i>Live</i> ({@link #of}): vectors built by the producer, in the producer's allocator. When the
 *       consumer is chained to the producer the batch reaches it as is, with no copy.
 *   <li><i>Wire</i>: the Arrow IPC stream bytes, on the heap. When a batch crosses a network shuffle (or
 *       is written into an unaligned checkpoint), {@link ArrowBatchSerializer} writes its IPC stream and
 *       the batch lets go of its vectors at that moment, because Flink gives the producer no later hook
 *       to free them. The consumer receives the wire form and {@link #open}s it into its own bounded
 *       allocator, so the off-heap memory of a received batch is always accounted to the consumer.
 * </ul>
 *
 * <p><b>Lent batches.</b> A producer whose batches may go to several consumers (a planner scan or calc shared
 * by the branches of a query) lends each batch for one hand-over instead ({@link #lend}, {@link #lent()}):
 * every consumer reads it
 * during the hand-over, a consumer's {@link #close()} only ends its own use, serializing it for a shuffle
 * writes its bytes without freeing it, and the lender frees it ({@link #reclaim()}) once the hand-over has
 * returned, when every chained consumer and every shuffle has done with it. A consumer that shares the
 * batch's buffers in a batch of its own holds them through Arrow's reference counts.
 *
 * <p><b>Emitting.</b> Producers should emit with {@link #emitTo(Collector)} from a flat-map or process
 * function: Flink can fail a hand-over before any consumer has the batch (its record writer checks for
 * errors before it serializes, and a cancelled task stops mid-chain), and only the emitting code can
 * then free it. A batch returned from a {@code MapFunction} has no such guard.
 *
 * <p><b>Selection.</b> A batch may carry a selection ({@link #selection()}): the rows of its vectors that
 * are part of the stream, as a columnar filter leaves them, with no vector copied. Every reader honours it:
 * the encode operator encodes only those rows, the serializer sends only those rows across a shuffle, a
 * following columnar calc evaluates only those rows.
 *
 * <p>Once emitted a batch is never modified, so {@link ArrowBatchSerializer#copy} returns the same
 * instance and the path behaves the same with or without object reuse. Not thread-safe: a batch is
 * used by one task thread at a time, as Flink hands elements over.
 */
@TypeInfo(ArrowBatchTypeInfo.Factory.class)
public final class ArrowBatch implements AutoCloseable {
    private VectorSchemaRoot live;
    private AutoCloseable liveOwner;
    private byte[] ipc;
    private ArrowStreamReader opened;
    private boolean closed;
    /** Ascending row indexes that passed a filter, or null for every row; see {@link #selection()}. */
    private final int[] selection;
    private final int selectedCount;
    /** The source split the batch was read from, or null; see {@link #splitId()}. */
    private final String splitId;
    /** True for a batch lent by its producer: see {@link #lend}. */
    private final boolean lent;

    private ArrowBatch(VectorSchemaRoot live, AutoCloseable liveOwner, byte[] ipc, int[] selection, int count,
            String splitId, boolean lent) {
        this.live = live;
        this.liveOwner = liveOwner;
        this.ipc = ipc;
        this.selection = selection;
        this.selectedCount = count;
        this.splitId = splitId;
        this.lent = lent;
    }

    /**
     * A batch over vectors the caller built. The batch takes ownership of {@code root} and of {@code
     * owner} (for example the allocator the vectors live in; null if there is nothing else to free):
     * closing the batch closes the root, then the owner.
     */
    public static ArrowBatch of(VectorSchemaRoot root, AutoCloseable owner) {
        if (root == null) {
            throw new IllegalArgumentException("root must not be null");
        }
        return new ArrowBatch(root, owner, null, null, -1, null, false);
    }

    /**
     * A batch a source read from one split: as {@link #of(VectorSchemaRoot, AutoCloseable)} with no owner,
     * naming the split ({@link #splitId()}).
     */
    public static ArrowBatch fromSplit(VectorSchemaRoot root, String splitId) {
        if (root == null || splitId == null) {
            throw new IllegalArgumentException("root and splitId must not be null");
        }
        return new ArrowBatch(root, null, null, null, -1, splitId, false);
    }

    /**
     * A batch a source read from one split and lends to its consumers for one hand-over (see the class
     * comment): their {@link #close()} does not free it; the caller frees it with {@link #reclaim()} after the
     * hand-over returns, also when it fails.
     */
    public static ArrowBatch lend(VectorSchemaRoot root, String splitId) {
        if (root == null || splitId == null) {
            throw new IllegalArgumentException("root and splitId must not be null");
        }
        return new ArrowBatch(root, null, null, null, -1, splitId, true);
    }

    /**
     * This batch, lent for one hand-over (see the class comment) instead of handed over: the returned batch
     * takes its vectors, owner and selection (this instance is spent: closed without freeing anything), its
     * consumers' {@link #close()} does not free it, and the caller frees it with {@link #reclaim()} after the
     * hand-over returns, also when it fails. For an operator whose output several consumers may read (a
     * columnar calc shared by the branches of a query).
     *
     * @throws IllegalStateException if the batch is closed, already lent, or in wire form
     */
    public ArrowBatch lent() {
        checkOpen();
        if (lent || live == null) {
            throw new IllegalStateException("only a live batch its producer owns can be lent, not " + this);
        }
        ArrowBatch loan = new ArrowBatch(live, liveOwner, null, selection, selectedCount, splitId, true);
        live = null;
        liveOwner = null;
        closed = true;
        return loan;
    }

    /**
     * Lends this batch ({@link #lent()}) for the one hand-over {@code handOver} makes, and frees it when that returns,
     * also when it throws: how an operator whose output several consumers may read emits a batch it built.
     */
    public void lendFor(java.util.function.Consumer<ArrowBatch> handOver) {
        ArrowBatch loan = lent();
        try {
            handOver.accept(loan);
        } finally {
            loan.reclaim();
        }
    }

    /**
     * The id of the source split this batch was read from, or null for a batch an operator built or one that
     * crossed a shuffle. A source's watermark strategy sees the batches of all the reader's splits through one
     * timestamp assigner, and keys the state it keeps per split by this id.
     */
    public String splitId() {
        return splitId;
    }

    /**
     * A batch over vectors the caller built, of which only the rows {@code selection[0..count)} (ascending,
     * each below the root's row count) are part of the stream: a filter's result with no vector copied.
     * Ownership as {@link #of(VectorSchemaRoot, AutoCloseable)}; the batch keeps {@code selection} as is.
     */
    public static ArrowBatch of(VectorSchemaRoot root, AutoCloseable owner, int[] selection, int count) {
        if (root == null) {
            throw new IllegalArgumentException("root must not be null");
        }
        if (selection == null || count < 0 || count > selection.length || count > root.getRowCount()) {
            throw new IllegalArgumentException("selection of " + count + " rows does not fit a batch of "
                    + root.getRowCount() + " rows");
        }
        return new ArrowBatch(root, owner, null, selection, count, null, false);
    }

    /**
     * The rows of the batch that are part of the stream, ascending, valid in {@code [0, selectedCount())};
     * null when every row of the root is. Readers must honour it: rows not selected were filtered out.
     * A batch that crossed a shuffle has no selection (the serializer sends the selected rows only).
     */
    public int[] selection() {
        return selection;
    }

    /**
     * The number of rows that are part of the stream: the selection's length, or the root's row count
     * (opened into {@code allocator} for a wire batch) when there is no selection.
     */
    public int selectedCount(BufferAllocator allocator) {
        return selection != null ? selectedCount : open(allocator).getRowCount();
    }

    /** A batch in wire form: one Arrow IPC stream holding one record batch. Holds no Arrow memory. */
    public static ArrowBatch fromIpc(byte[] ipcStream) {
        if (ipcStream == null) {
            throw new IllegalArgumentException("ipcStream must not be null");
        }
        return new ArrowBatch(null, null, ipcStream, null, -1, null, false);
    }

    /**
     * The batch's vectors. A live batch returns its own root; a wire batch is read into {@code
     * allocator} on the first call (and the same root is returned on later calls). The root stays
     * valid until {@link #close()}.
     *
     * @throws org.apache.arrow.memory.OutOfMemoryException if the batch does not fit {@code allocator}
     */
    public VectorSchemaRoot open(BufferAllocator allocator) {
        checkOpen();
        if (live != null) {
            return live;
        }
        if (opened == null) {
            ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator);
            try {
                if (!reader.loadNextBatch()) {
                    throw new IllegalStateException("Arrow IPC stream of the batch holds no record batch");
                }
            } catch (IOException e) {
                closeQuietly(reader, e);
                throw new UncheckedIOException("cannot read the batch's Arrow IPC stream", e);
            } catch (RuntimeException e) {
                closeQuietly(reader, e);
                throw e;
            }
            opened = reader;
        }
        try {
            return opened.getVectorSchemaRoot();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The wire form. A live batch is written as an Arrow IPC stream once, and then frees its vectors
     * and owner right away: from here on the batch is the bytes. A lent batch keeps its vectors for its
     * other consumers (its lender frees them) and writes its bytes once for every shuffle it crosses.
     */
    byte[] ipcStream() {
        checkOpen();
        if (ipc == null) {
            ipc = selection == null ? write(live) : writeSelected(live, selection, selectedCount);
            if (lent) {
                return ipc;
            }
            AutoCloseable root = live;
            AutoCloseable owner = liveOwner;
            live = null;
            liveOwner = null;
            closeAll(root, owner);
        }
        return ipc;
    }

    /**
     * Hands this batch to {@code out}, giving up ownership. If the hand-over throws, the batch is closed
     * (a consumer that already took it has closed it too; closing twice is harmless) and the error is
     * rethrown, so a failing or cancelled job does not leak the producer's Arrow memory.
     */
    public void emitTo(Collector<? super ArrowBatch> out) {
        try {
            out.collect(this);
        } catch (Throwable t) {
            try {
                close();
            } catch (RuntimeException suppressed) {
                t.addSuppressed(suppressed);
            }
            throw t;
        }
    }

    /** True for a batch whose vectors the producer built in this task (no wire round trip). */
    public boolean isLive() {
        return live != null;
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Frees everything the batch holds: the opened vectors, or the live vectors and their owner. On a lent
     * batch it does nothing: the consumer's use ends, the lender frees the batch ({@link #reclaim()}).
     */
    @Override
    public void close() {
        if (!lent) {
            free();
        }
    }

    /** The lender's end of a loan ({@link #lend}): frees the batch once the hand-over has returned. */
    public void reclaim() {
        if (!lent) {
            throw new IllegalStateException("only a lent batch is reclaimed; a batch's consumer closes it");
        }
        free();
    }

    /**
     * The lender's end of a loan ({@link #lend}) that takes the vectors back instead of freeing them: the batch is
     * closed, and the caller owns the returned root again (its consumers no longer read its vectors; one that keeps
     * buffers of it holds them through Arrow's reference counts), so it may reuse the vector objects.
     *
     * @throws IllegalStateException if the batch was not lent by {@link #lend}, or is closed
     */
    public VectorSchemaRoot takeBack() {
        if (!lent || liveOwner != null) {
            throw new IllegalStateException("only a batch lent by its source is taken back, not " + this);
        }
        checkOpen();
        VectorSchemaRoot root = live;
        closed = true;
        live = null;
        ipc = null;
        return root;
    }

    private void free() {
        if (closed) {
            return;
        }
        closed = true;
        AutoCloseable reader = opened;
        AutoCloseable root = live;
        AutoCloseable owner = liveOwner;
        opened = null;
        live = null;
        liveOwner = null;
        ipc = null;
        closeAll(reader, root, owner);
    }

    private static byte[] write(VectorSchemaRoot root) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(estimate(root));
        try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            writer.writeBatch();
            writer.end();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the batch as an Arrow IPC stream", e);
        }
        return out.toByteArray();
    }

    /**
     * Only the selected rows cross the shuffle: they are copied into vectors of the live root's own
     * allocator, written, and freed (the receiver sees a plain batch with no selection).
     */
    private static byte[] writeSelected(VectorSchemaRoot root, int[] selection, int count) {
        try (VectorSchemaRoot compacted = Selections.compact(root, selection, count)) {
            return write(compacted);
        }
    }

    private static int estimate(VectorSchemaRoot root) {
        long bytes = 1024;
        for (var vector : root.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return (int) Math.min(Integer.MAX_VALUE - 16, bytes);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(
                    "Arrow batch is closed: a batch has one consumer and must not be used after close");
        }
    }

    private static void closeAll(AutoCloseable... closeables) {
        try {
            AutoCloseables.close(closeables);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot free an Arrow batch", e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable, Throwable cause) {
        try {
            closeable.close();
        } catch (Exception suppressed) {
            cause.addSuppressed(suppressed);
        }
    }

    @Override
    public String toString() {
        if (closed) {
            return "ArrowBatch[closed]";
        }
        return live != null
                ? "ArrowBatch[live, " + live.getRowCount() + " rows"
                        + (selection != null ? ", " + selectedCount + " selected]" : "]")
                : "ArrowBatch[ipc, " + ipc.length + " bytes" + (opened != null ? ", opened" : "") + "]";
    }
}
