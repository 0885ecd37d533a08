package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchLayoutException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * Writes the values of one Arrow vector as JSON. Chosen once per column when the plan is built, then
 * {@linkplain #bind bound} to each batch's vector: buffer addresses are read and buffer sizes checked
 * once per batch, so the per-value reads are unchecked {@link MemoryUtil} loads.
 *
 * <p>Not thread-safe; a writer belongs to one encoder.
 */
abstract class JsonValueWriter {
    /** Column path for errors: {@code a}, {@code a.b}, {@code a[]}, {@code a.key}, {@code a.value}. */
    final String path;
    private long validity;
    private boolean hasValidity;

    JsonValueWriter(String path) {
        this.path = path;
    }

    /**
     * Binds this writer to {@code vector} for values {@code [0, count)}.
     *
     * @throws BatchLayoutException if a buffer is too small for {@code count} values
     */
    final void bind(ValueVector vector, int count) {
        if (vector.getValueCount() < count) {
            throw new BatchLayoutException(
                    path, "vector has " + vector.getValueCount() + " values but " + count + " are needed");
        }
        ArrowBuf buffer = vector.getValidityBuffer();
        // Arrow may omit the validity buffer when no value is null.
        hasValidity = buffer != null && buffer.capacity() > 0;
        if (hasValidity) {
            requireCapacity(buffer, (count + 7L) / 8, "validity");
            validity = buffer.memoryAddress();
        }
        bindValues(vector, count);
    }

    /** Reads the value buffers of {@code vector} for values {@code [0, count)}. */
    abstract void bindValues(ValueVector vector, int count);

    /** Writes the non-null value at {@code index}. */
    abstract void write(JsonOutput out, int index);

    final boolean isNull(int index) {
        return hasValidity && (MemoryUtil.getByte(validity + (index >> 3)) & (1 << (index & 7))) == 0;
    }

    /** Writes the value at {@code index}, or {@code null}. */
    final void writeNullable(JsonOutput out, int index) {
        if (isNull(index)) {
            JsonFields.writeNull(out);
        } else {
            write(out, index);
        }
    }

    /** Address of {@code buffer} after checking it holds {@code bytes} bytes. */
    final long address(ArrowBuf buffer, long bytes, String what) {
        if (bytes == 0) {
            return 0;
        }
        requireCapacity(buffer, bytes, what);
        return buffer.memoryAddress();
    }

    private void requireCapacity(ArrowBuf buffer, long bytes, String what) {
        long capacity = buffer == null ? 0 : buffer.capacity();
        if (capacity < bytes) {
            throw new BatchLayoutException(
                    path, what + " buffer holds " + capacity + " bytes but " + bytes + " are needed");
        }
    }
}
