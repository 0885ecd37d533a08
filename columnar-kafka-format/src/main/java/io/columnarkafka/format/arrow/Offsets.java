package io.columnarkafka.format.arrow;

import io.columnarkafka.format.BatchLayoutException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The offsets buffer of a variable-width or list vector: 32-bit (Utf8, Binary, List, Map) or 64-bit
 * (the Large variants), chosen per batch. Binding checks the buffer's size and that the offsets never
 * decrease, so that every later unchecked read stays inside the checked buffers.
 */
public final class Offsets {
    private long address;
    private boolean large;
    private long first;
    private long last;
    private long maxLength;

    public void bind(String path, ArrowBuf buffer, int count, boolean largeOffsets) {
        large = largeOffsets;
        first = 0;
        last = 0;
        maxLength = 0;
        if (count == 0) {
            return;
        }
        long bytes = (count + 1L) * (large ? 8 : 4);
        long capacity = buffer == null ? 0 : buffer.capacity();
        if (capacity < bytes) {
            throw new BatchLayoutException(
                    path, "offset buffer holds " + capacity + " bytes but " + bytes + " are needed");
        }
        address = buffer.memoryAddress();
        long previous = get(0);
        if (previous < 0) {
            throw new BatchLayoutException(path, "first offset is negative: " + previous);
        }
        long longest = 0;
        for (int i = 1; i <= count; i++) {
            long current = get(i);
            if (current < previous) {
                throw new BatchLayoutException(
                        path, "offsets decrease at value " + (i - 1) + ": " + previous + " then " + current);
            }
            longest = Math.max(longest, current - previous);
            previous = current;
        }
        first = get(0);
        last = previous;
        maxLength = longest;
    }

    public long get(int index) {
        return large ? MemoryUtil.getLong(address + 8L * index) : MemoryUtil.getInt(address + 4L * index);
    }

    /** Start of the first value. */
    public long first() {
        return first;
    }

    /** End of the last value: the child or data length the values need. */
    public long last() {
        return last;
    }

    /** Length of the longest value (bytes or child values), so writers can bound a batch's values. */
    public long maxLength() {
        return maxLength;
    }
}
