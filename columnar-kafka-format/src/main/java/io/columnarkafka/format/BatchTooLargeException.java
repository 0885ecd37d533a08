package io.columnarkafka.format;

/**
 * An encoded batch that does not fit one {@link RecordSlab}: its records would need more bytes than the slab's
 * limit, which is the largest Java array (about 2 GiB) unless configured lower. Thrown while the row that crosses the
 * limit is written; the encoder then clears the slab, so nothing of the batch is handed out. The fix is smaller
 * Arrow batches: the limit is on the batch's total, so no single column is to blame.
 */
public final class BatchTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int row;
    private final long neededBytes;
    private final long limitBytes;

    BatchTooLargeException(int row, long neededBytes, long limitBytes) {
        super((row < 0 ? "" : "row " + row + ": ") + "the encoded batch needs " + neededBytes
                + " bytes, more than the slab's limit of " + limitBytes + " bytes (one Java array);"
                + " send smaller Arrow batches");
        this.row = row;
        this.neededBytes = neededBytes;
        this.limitBytes = limitBytes;
    }

    /** The same overflow, naming the batch row whose bytes crossed the limit. */
    BatchTooLargeException atRow(int batchRow) {
        return new BatchTooLargeException(batchRow, neededBytes, limitBytes);
    }

    /** The batch row whose bytes crossed the limit, or -1 if unknown. */
    public int row() {
        return row;
    }

    /** Bytes the batch needed when it crossed the limit (the rows before {@link #row()} plus that row so far). */
    public long neededBytes() {
        return neededBytes;
    }

    /** The slab's limit in bytes. */
    public long limitBytes() {
        return limitBytes;
    }
}
