package io.columnarkafka.format;

import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes whole batches of Kafka record bytes into Arrow, the mirror of {@link BatchEncoder}. A decoder
 * is a plan: built once (per task) from the row type to produce and the format's options, it picks a
 * typed reader per field up front and then decodes any number of batches with no per-row decisions,
 * no {@code RowData}, no Jackson tree and no boxing.
 *
 * <p>The rows it produces are laid out as {@link ArrowLayout#schema} of {@link #rowType()}, timestamps as
 * {@link #timestampLayout()} says. Which records yield a row is exactly Flink's deserializer's choice: a record
 * Flink's {@code DeserializationSchema} turns into no row (a tombstone for most formats, a malformed
 * record under {@code ignore-parse-errors}) yields none here either, and {@link DecodedBatch#recordOf}
 * maps each row back to its record.
 *
 * <p>Not thread-safe: one decoder per task.
 */
public interface BatchDecoder {

    /**
     * Decodes every record of {@code records}, in order, into vectors allocated from {@code allocator}.
     * The caller owns the returned batch and must close it.
     *
     * @throws DecodeException for a record Flink's deserializer rejects, naming the record and the
     *     field; nothing allocated by the call remains allocated
     */
    DecodedBatch decode(RecordBytes records, BufferAllocator allocator);

    /**
     * Gives back the root of a batch this decoder returned ({@link DecodedBatch#takeRoot()}) once its owner is done
     * with it: the caller gives the root up, and nothing reads its vectors any more (a reader that kept buffers of
     * them holds those through Arrow's reference counts, not through these vectors). A decoder may then build a
     * later batch in the same vector objects, and in their buffers, not a new vector tree per batch; by default the
     * root is closed. A decoder that keeps a root holds memory of the root's allocator until {@link #releaseRecycled}.
     */
    default void recycle(VectorSchemaRoot root) {
        root.close();
    }

    /** Frees what {@link #recycle} kept: the owner of the allocator calls it before closing the allocator. */
    default void releaseRecycled() {}

    /** The row type of the rows this decoder produces (the projected fields of the format's row). */
    RowType rowType();

    /**
     * How the rows carry TIMESTAMP and TIMESTAMP_LTZ: {@link ArrowLayout#schema(RowType, ArrowLayout.NanoTimestamps)}
     * of {@link #rowType()} with this is the layout of every batch. Arrow units unless a format says otherwise
     * (json and csv: Flink's millis + nanos of the milli at every precision, every digit of the text).
     */
    default ArrowLayout.NanoTimestamps timestampLayout() {
        return ArrowLayout.NanoTimestamps.ARROW_NANOSECOND;
    }
}
