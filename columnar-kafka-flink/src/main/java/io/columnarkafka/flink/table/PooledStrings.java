package io.columnarkafka.flink.table;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;

/**
 * Writes strings held as ranges of a byte pool into binary rows, as Flink's {@code BinaryStringData} over the pool
 * (the writer copies the bytes once, into the row), not as a copy of each string's bytes first.
 */
final class PooledStrings {
    private MemorySegment[] segments = {MemorySegmentFactory.wrap(new byte[0])};

    /** Field {@code pos} of the row: the UTF-8 bytes [offset, offset + length) of {@code pool}. */
    void write(BinaryRowWriter out, int pos, byte[] pool, int offset, int length) {
        if (segments[0].getArray() != pool) {
            segments = new MemorySegment[] {MemorySegmentFactory.wrap(pool)};
        }
        out.writeString(pos, BinaryStringData.fromAddress(segments, offset, length));
    }
}
