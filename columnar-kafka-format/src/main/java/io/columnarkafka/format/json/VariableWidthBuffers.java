package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;

/**
 * A variable-width vector (VARCHAR, VARBINARY) appended to straight through its buffers while they have
 * room, for the string and binary readers ({@link ArrowAppend}); Arrow's {@code setSafe} grows them when
 * they do not. Offsets are written for every entry, nulls included, so Arrow's {@code lastSet} is always the
 * last entry and a truncated batch needs no offsets filled in later.
 */
final class VariableWidthBuffers {
    private BaseVariableWidthVector vector;
    private long validity;
    private long offsets;
    private long data;
    private int valueCapacity;
    private long dataCapacity;
    /** The end of the last entry's bytes in the data buffer. */
    private int end;

    void bind(BaseVariableWidthVector target) {
        vector = target;
        end = 0;
        addressesChanged();
    }

    /** Writes entry {@code index}, the next one, as {@code length} bytes of {@code bytes} from {@code start}. */
    void append(int index, byte[] bytes, int start, int length) {
        if (index < valueCapacity && end + (long) length <= dataCapacity) {
            MemoryUtil.copyToMemory(bytes, start, data + end, length);
            end += length;
            MemoryUtil.putInt(offsets + ((long) index + 1) * 4, end);
            ArrowAppend.setValid(validity, index);
        } else {
            vector.setSafe(index, bytes, start, length);
            addressesChanged();
            end += length;
        }
        vector.setLastSet(index);
    }

    /** Where entry {@code index}'s bytes go if written through {@link #commit}. */
    long nextAddress() {
        return data + end;
    }

    /** The bytes entry {@code index}, the next one, may take at {@link #nextAddress()} without growing. */
    long room(int index) {
        return index < valueCapacity ? dataCapacity - end : 0;
    }

    /** Makes entry {@code index}, the next one, the {@code length} bytes written at {@link #nextAddress()}. */
    void commit(int index, int length) {
        end += length;
        MemoryUtil.putInt(offsets + ((long) index + 1) * 4, end);
        ArrowAppend.setValid(validity, index);
        vector.setLastSet(index);
    }

    /** Writes entry {@code index}, the next one, as null. */
    void appendNull(int index) {
        if (index >= valueCapacity) {
            vector.setNull(index); // grows the validity and offset buffers
            addressesChanged();
        }
        MemoryUtil.putInt(offsets + ((long) index + 1) * 4, end);
        ArrowAppend.setNull(validity, index);
        vector.setLastSet(index);
    }

    /** Drops the entries from {@code entries} on; all entries before it have been written. */
    void truncate(int entries) {
        end = MemoryUtil.getInt(offsets + (long) entries * 4);
        vector.setLastSet(entries - 1);
    }

    /** {@link JsonReader#reorder} of entries written through these buffers, the last ones. */
    void reorder(int start, int read, int[] from, int size, EntryReorder reorder) {
        reorder.bits(validity, start, read, from, size);
        end = reorder.variableWidth(offsets, data, start, read, from, size);
        vector.setLastSet(start + size - 1);
    }

    private void addressesChanged() {
        validity = vector.getValidityBufferAddress();
        offsets = vector.getOffsetBufferAddress();
        data = vector.getDataBufferAddress();
        valueCapacity = vector.getValueCapacity();
        dataCapacity = vector.getByteCapacity();
    }
}
