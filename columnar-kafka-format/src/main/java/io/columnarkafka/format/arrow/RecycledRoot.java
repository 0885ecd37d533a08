package io.columnarkafka.format.arrow;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ReferenceManager;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.NonNullableStructVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The vector tree a decoder lends out with each batch and takes back for the next one, with its buffers: a batch of a
 * few rows would otherwise spend most of its time in Arrow's per-buffer allocate and release (an allocation manager,
 * a ledger and the allocator's accounting per buffer, ~70 buffers for a Nexmark event row).
 *
 * <p><b>Ownership.</b> Only the root {@link #take} handed out last is taken back ({@link #giveBack}); any other root
 * is closed. A root given back is kept with its buffers only if the decoder is their only holder: every buffer's
 * reference count is one and its memory is accounted to this decoder's allocator. A consumer that kept a buffer of
 * the batch (a calc's column shared by {@code splitAndTransfer}) raises its count, or owns it after a transfer to
 * its own allocator; the tree is then cleared (our references released, the consumer's buffer untouched) and the
 * next batch allocates afresh. Whoever owns the decoder {@link #release}s the kept tree before closing the allocator.
 *
 * <p><b>Reset.</b> A kept tree is reset as Arrow's {@code reset()} does, which for every vector kind sets the value
 * count to zero and zeroes whole buffers: validity (fixed-width, variable-width, list, map, struct), values of
 * fixed-width vectors (so a null entry reads as zero bytes, as in a new vector), offsets of variable-width vectors,
 * lists and maps, and it sets {@code lastSet} back to -1 (variable-width, list, map); structs, lists and maps reset
 * their children. Only the data of variable-width vectors is left as it is (Arrow's reset zeroes it; a new vector's
 * is not zeroed either): a batch's strings are the bytes below its last offset, all written by that batch. The next
 * batch is then written into buffers that read as new ones, and grows a buffer only when it needs more.
 *
 * <p><b>Bound.</b> Resetting costs a pass over the kept capacity, and a kept tree pins its memory. A tree is kept only
 * while its capacity (the bytes of all its buffers) is at most {@value #KEPT_CAPACITY_FACTOR} times the larger of
 * {@value #FLOOR_BYTES} bytes and the recent peak: the bytes the batches used ({@code getBufferSize}), the peak taking
 * each batch's bytes when larger and otherwise halving per batch. A tree grown by one huge batch is therefore
 * released within {@code 3 + log2(huge / usual)} batches of the usual size, and never more than eight times what
 * recent batches used (at least {@value #FLOOR_BYTES} bytes) stays pinned between batches.
 */
public final class RecycledRoot {
    static final int KEPT_CAPACITY_FACTOR = 8;
    static final long FLOOR_BYTES = 16 * 1024;
    /** The root handed out last, the only one taken back. */
    private VectorSchemaRoot lent;
    /** A root taken back: reset with its buffers, or cleared; the vector tree of the next batch. */
    private VectorSchemaRoot spare;
    /** The bytes recent batches used, see the class comment. */
    private long recentPeak;

    /**
     * The kept tree when there is one in {@code allocator}, else a new one of {@code schema}: making the tree (a
     * vector per field, nested rows' children, their fields) is a per-batch cost too. Its vectors may hold zeroed
     * buffers (a value capacity above zero) or none; the caller allocates what is missing or too small.
     */
    public VectorSchemaRoot take(Schema schema, BufferAllocator allocator) {
        VectorSchemaRoot reused = spare;
        spare = null;
        if (reused != null) {
            if (reused.getFieldVectors().isEmpty() || reused.getFieldVectors().get(0).getAllocator() == allocator) {
                lent = reused;
                return reused;
            }
            reused.close();
        }
        lent = VectorSchemaRoot.create(schema, allocator);
        return lent;
    }

    /**
     * Takes back the root {@link #take} handed out last, once nothing reads its vectors any more (see the class
     * comment for which buffers are kept); any other root is closed.
     */
    public void giveBack(VectorSchemaRoot root) {
        if (root != lent) {
            root.close();
            return;
        }
        lent = null;
        long used = 0;
        long capacity = 0;
        for (FieldVector vector : root.getFieldVectors()) {
            used += vector.getBufferSize();
            long held = exclusiveCapacity(vector, vector.getAllocator());
            capacity = held < 0 || capacity < 0 ? -1 : capacity + held;
        }
        recentPeak = Math.max(used, recentPeak / 2);
        if (capacity < 0 || capacity > KEPT_CAPACITY_FACTOR * Math.max(FLOOR_BYTES, recentPeak)) {
            root.clear();
        } else {
            for (FieldVector vector : root.getFieldVectors()) {
                reset(vector);
            }
            root.setRowCount(0); // every vector's value count, and a variable-width one's lastSet, once
        }
        spare = root;
    }

    /**
     * Arrow's {@code reset()}, except that the data of variable-width vectors is not zeroed: only the bytes below
     * the last offset belong to a batch (Arrow writes no more), and the next batch writes every one of them again.
     * The value counts of variable-width vectors and structs are left to the caller's {@code setRowCount(0)}, which
     * sets each once (a struct sets its children's): setting them here too was a second pass over every struct's
     * children, a tenth of a one-row batch's step.
     */
    private static void reset(ValueVector vector) {
        if (vector instanceof BaseVariableWidthVector variable) {
            variable.getValidityBuffer().setZero(0, variable.getValidityBuffer().capacity());
            variable.getOffsetBuffer().setZero(0, variable.getOffsetBuffer().capacity());
        } else if (vector instanceof NonNullableStructVector struct) {
            if (struct instanceof StructVector nullable) {
                nullable.getValidityBuffer().setZero(0, nullable.getValidityBuffer().capacity());
            }
            for (int i = 0; i < struct.size(); i++) {
                reset(struct.getChildByOrdinal(i));
            }
        } else {
            vector.reset();
        }
    }

    /** Frees the kept tree, if any: before the allocator it lives in is closed. */
    public void release() {
        if (spare != null) {
            spare.close();
            spare = null;
        }
    }

    /**
     * The bytes of {@code vector}'s buffers and its children's, or -1 if one of them is shared (see the class
     * comment) or the vector is of a kind not walked here.
     */
    private static long exclusiveCapacity(ValueVector vector, BufferAllocator allocator) {
        if (vector instanceof BaseFixedWidthVector fixed) {
            return own(allocator, fixed.getValidityBuffer(), fixed.getDataBuffer(), null);
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            return own(allocator, variable.getValidityBuffer(), variable.getOffsetBuffer(), variable.getDataBuffer());
        }
        if (vector instanceof ListVector list) { // and MapVector
            return sum(own(allocator, list.getValidityBuffer(), list.getOffsetBuffer(), null),
                    exclusiveCapacity(list.getDataVector(), allocator));
        }
        if (vector instanceof NonNullableStructVector struct) {
            long bytes = struct instanceof StructVector nullable
                    ? own(allocator, nullable.getValidityBuffer(), null, null) : 0;
            for (int i = 0; i < struct.size(); i++) {
                bytes = sum(bytes, exclusiveCapacity(struct.getChildByOrdinal(i), allocator));
            }
            return bytes;
        }
        return -1;
    }

    /**
     * The capacity of one vector's own buffers {@code a}, {@code b} and {@code c} (null when it has fewer), or -1 if
     * anything else holds one of them or it is accounted to another allocator. Arrow may slice two of a vector's
     * buffers out of one allocation (validity and values), each slice holding a reference: an allocation is ours
     * alone when its reference count is the number of our buffers in it.
     */
    private static long own(BufferAllocator allocator, ArrowBuf a, ArrowBuf b, ArrowBuf c) {
        return sum(sum(own(allocator, a, a, b, c), own(allocator, b, a, b, c)), own(allocator, c, a, b, c));
    }

    /** The capacity of {@code buffer}, one of a vector's own buffers {@code a}, {@code b}, {@code c}, or -1. */
    private static long own(BufferAllocator allocator, ArrowBuf buffer, ArrowBuf a, ArrowBuf b, ArrowBuf c) {
        if (buffer == null || buffer.capacity() == 0) {
            return 0;
        }
        ReferenceManager references = buffer.getReferenceManager();
        int ours = holds(a, references) + holds(b, references) + holds(c, references);
        return references.getRefCount() == ours && references.getAllocator() == allocator
                && references.getAccountedSize() > 0 ? buffer.capacity() : -1;
    }

    private static int holds(ArrowBuf buffer, ReferenceManager references) {
        return buffer != null && buffer.capacity() > 0 && buffer.getReferenceManager() == references ? 1 : 0;
    }

    private static long sum(long a, long b) {
        return a < 0 || b < 0 ? -1 : a + b;
    }
}
