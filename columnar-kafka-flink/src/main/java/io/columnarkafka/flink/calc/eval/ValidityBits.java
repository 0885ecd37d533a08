package io.columnarkafka.flink.calc.eval;

import org.apache.arrow.vector.ValueVector;

/**
 * A vector's validity bits for one batch, copied to the heap in one bounds-checked read, so that rows are tested
 * without Arrow's checked access per row. A row is null where its bit is clear: what {@code isNull} reads for every
 * vector the calc reads, and for ROW ({@code StructVector}). Reused from batch to batch.
 */
final class ValidityBits {
    private byte[] bits = new byte[0];

    /** Holds the bits of rows {@code [0, rows)} of {@code vector}. */
    ValidityBits read(ValueVector vector, int rows) {
        int bytes = (rows + 7) / 8;
        if (bits.length < bytes) {
            bits = new byte[bytes];
        }
        vector.getValidityBuffer().getBytes(0, bits, 0, bytes);
        return this;
    }

    boolean isNull(int row) {
        return (bits[row >> 3] & (1 << (row & 7))) == 0;
    }
}
