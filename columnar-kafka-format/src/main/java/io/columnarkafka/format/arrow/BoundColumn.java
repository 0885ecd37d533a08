package io.columnarkafka.format.arrow;

import io.columnarkafka.format.BatchLayoutException;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.LargeListVector;

/**
 * A reader of one Arrow vector, the base of every format's column writers. Chosen once per column
 * when an encoder is planned, then {@linkplain #bind bound} to each batch's vector: buffer addresses
 * are read and buffer sizes checked once per batch, so the per-value reads in subclasses are
 * unchecked {@link MemoryUtil} loads from the addresses {@link #address} returned.
 *
 * <p>Not thread-safe; a column belongs to one encoder.
 */
public abstract class BoundColumn {
    /** Column path for errors: {@code a}, {@code a.b}, {@code a[]}, {@code a.key}, {@code a.value}. */
    protected final String path;
    private long validity;
    private boolean someNull;

    protected BoundColumn(String path) {
        this.path = path;
    }

    /** The column path used in error messages. */
    public final String path() {
        return path;
    }

    /**
     * Binds this column to {@code vector} for values {@code [0, count)}.
     *
     * @throws BatchLayoutException if a buffer is too small for {@code count} values
     */
    public final void bind(ValueVector vector, int count) {
        if (vector.getValueCount() < count) {
            throw new BatchLayoutException(
                    path, "vector has " + vector.getValueCount() + " values but " + count + " are needed");
        }
        ArrowBuf buffer = vector.getValidityBuffer();
        // Arrow may omit the validity buffer when no value is null. When it is there but every bit of
        // [0, count) is set, isNull() skips the per-value bit read for the whole batch.
        someNull = false;
        if (buffer != null && buffer.capacity() > 0) {
            requireCapacity(buffer, (count + 7L) / 8, "validity");
            validity = buffer.memoryAddress();
            someNull = anyUnset(validity, count);
        }
        bindValues(vector, count);
    }

    /** Reads the value buffers of {@code vector} for values {@code [0, count)}, checking their sizes. */
    protected abstract void bindValues(ValueVector vector, int count);

    /** True if the value at {@code index} (of the bound batch) is null; no memory read in an all-valid batch. */
    public final boolean isNull(int index) {
        return someNull && (MemoryUtil.getByte(validity + (index >> 3)) & (1 << (index & 7))) == 0;
    }

    /** True if some bit of {@code [0, count)} in the bitmap at {@code address} is 0 (a null value). */
    private static boolean anyUnset(long address, int count) {
        int full = count >>> 6;
        for (int w = 0; w < full; w++) {
            if (MemoryUtil.getLong(address + 8L * w) != -1L) {
                return true;
            }
        }
        for (int i = full << 6; i < count; i++) {
            if ((MemoryUtil.getByte(address + (i >> 3)) & (1 << (i & 7))) == 0) {
                return true;
            }
        }
        return false;
    }

    /** Address of {@code buffer} after checking it holds {@code bytes} bytes. */
    protected final long address(ArrowBuf buffer, long bytes, String what) {
        if (bytes == 0) {
            return 0;
        }
        requireCapacity(buffer, bytes, what);
        return buffer.memoryAddress();
    }

    /** Number of child values {@code offsets} reach, which must fit an int index. */
    protected static int childCount(String path, Offsets offsets) {
        if (offsets.last() > Integer.MAX_VALUE) {
            throw new BatchLayoutException(path, "offsets reach " + offsets.last() + " child values");
        }
        return (int) offsets.last();
    }

    /**
     * Binds the parts of an Arrow List or LargeList vector of {@code count} lists: its offsets, then the
     * element column for every element the offsets reach. One place for every format's array writer.
     */
    protected final void bindList(ValueVector vector, int count, Offsets offsets, BoundColumn elements) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeListVector);
        elements.bind(((FieldVector) vector).getChildrenFromFields().get(0), childCount(path, offsets));
    }

    /**
     * Binds the parts of an Arrow Map vector of {@code count} maps: its offsets, then the key and value
     * columns for every entry the offsets reach. One place for every format's map writer.
     */
    protected final void bindMap(ValueVector vector, int count, Offsets offsets, BoundColumn keys, BoundColumn values) {
        offsets.bind(path, vector.getOffsetBuffer(), count, false);
        int entries = childCount(path, offsets);
        FieldVector entryVector = ((FieldVector) vector).getChildrenFromFields().get(0);
        if (entryVector.getValueCount() < entries) {
            throw new BatchLayoutException(path, "map entries vector has " + entryVector.getValueCount()
                    + " values but the offsets reach " + entries);
        }
        List<FieldVector> keyAndValue = entryVector.getChildrenFromFields();
        keys.bind(keyAndValue.get(0), entries);
        values.bind(keyAndValue.get(1), entries);
    }

    private void requireCapacity(ArrowBuf buffer, long bytes, String what) {
        long capacity = buffer == null ? 0 : buffer.capacity();
        if (capacity < bytes) {
            throw new BatchLayoutException(
                    path, what + " buffer holds " + capacity + " bytes but " + bytes + " are needed");
        }
    }
}
