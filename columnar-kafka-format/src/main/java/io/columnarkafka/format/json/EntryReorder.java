package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Puts the last entries written into a vector's buffers into another order, in place ({@link JsonReader#reorder}):
 * entries {@code [start, start + read)} are copied aside, then entry {@code start + j} is written from what entry
 * {@code start + from[j]} was, for {@code j < size}. {@link MapJsonReader} gives a map of scalar values Flink's order
 * so, where reading the entries again from the tokenizer would cost as much as reading them did. The copies aside
 * are kept, growing as needed, so a map allocates nothing; they are words, not bytes, as an entry is a few bytes
 * and {@code Unsafe.copyMemory} costs more per call than moving them word by word.
 */
final class EntryReorder {
    private boolean[] savedBits = new boolean[16];
    private long[] savedWords = new long[64];
    /** Per variable-width entry copied aside: the word its bytes start at, and their length. */
    private int[] savedAt = new int[16];
    private int[] savedLength = new int[16];

    /** A bit-packed buffer: validity, or BOOLEAN values. */
    void bits(long buffer, int start, int read, int[] from, int size) {
        if (savedBits.length < read) {
            savedBits = new boolean[Math.max(read, savedBits.length * 2)];
        }
        boolean[] saved = savedBits;
        boolean allSet = true;
        for (int e = 0; e < read; e++) {
            saved[e] = ArrowAppend.bit(buffer, start + e);
            allSet &= saved[e];
        }
        if (allSet) {
            return; // as they stay (keys' validity, mostly values' too)
        }
        for (int j = 0; j < size; j++) {
            ArrowAppend.setBit(buffer, start + j, saved[from[j]]);
        }
    }

    /** Values of {@code width} bytes each. */
    void fixedWidth(long values, int width, int start, int read, int[] from, int size) {
        int words = wordsOf(width);
        ensureWords(read * words);
        for (int e = 0; e < read; e++) {
            save(values + (long) (start + e) * width, width, e * words);
        }
        for (int j = 0; j < size; j++) {
            restore(from[j] * words, values + (long) (start + j) * width, width);
        }
    }

    /**
     * Values of any length, each between its offset and the next one's (4 bytes each) in {@code data}.
     *
     * @return the end of the last entry's bytes in {@code data}
     */
    int variableWidth(long offsets, long data, int start, int read, int[] from, int size) {
        if (savedAt.length < read) {
            savedAt = new int[Math.max(read, savedAt.length * 2)];
            savedLength = new int[savedAt.length];
        }
        int first = MemoryUtil.getInt(offsets + (long) start * 4);
        // each entry's last word may hold fewer than 8 bytes
        ensureWords(wordsOf(MemoryUtil.getInt(offsets + (long) (start + read) * 4) - first) + read);
        int end = first;
        int words = 0;
        for (int e = 0; e < read; e++) {
            int next = MemoryUtil.getInt(offsets + (long) (start + e + 1) * 4);
            savedAt[e] = words;
            savedLength[e] = next - end;
            save(data + end, next - end, words);
            words += wordsOf(next - end);
            end = next;
        }
        end = first;
        for (int j = 0; j < size; j++) {
            int e = from[j];
            restore(savedAt[e], data + end, savedLength[e]);
            end += savedLength[e];
            MemoryUtil.putInt(offsets + (long) (start + j + 1) * 4, end);
        }
        return end;
    }

    private static int wordsOf(int length) {
        return (length + 7) >>> 3;
    }

    private void ensureWords(int words) {
        if (savedWords.length < words) {
            savedWords = new long[Math.max(words, savedWords.length * 2)];
        }
    }

    /** Copies {@code length} bytes at {@code address} into the words from {@code word}: whole words, then the rest in one. */
    private void save(long address, int length, int word) {
        long[] saved = savedWords;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            saved[word++] = MemoryUtil.getLong(address + i);
        }
        if (i < length) {
            long rest = 0;
            int shift = 0;
            if (length - i >= 4) {
                rest = MemoryUtil.getInt(address + i) & 0xFFFFFFFFL;
                i += 4;
                shift = 32;
            }
            if (length - i >= 2) {
                rest |= (MemoryUtil.getShort(address + i) & 0xFFFFL) << shift;
                i += 2;
                shift += 16;
            }
            if (i < length) {
                rest |= (MemoryUtil.getByte(address + i) & 0xFFL) << shift;
            }
            saved[word] = rest;
        }
    }

    /** Writes back the {@code length} bytes {@link #save} copied into the words from {@code word}, at {@code address}. */
    private void restore(int word, long address, int length) {
        long[] saved = savedWords;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            MemoryUtil.putLong(address + i, saved[word++]);
        }
        if (i < length) {
            long rest = saved[word];
            if (length - i >= 4) {
                MemoryUtil.putInt(address + i, (int) rest);
                i += 4;
                rest >>>= 32;
            }
            if (length - i >= 2) {
                MemoryUtil.putShort(address + i, (short) rest);
                i += 2;
                rest >>>= 16;
            }
            if (i < length) {
                MemoryUtil.putByte(address + i, (byte) rest);
            }
        }
    }
}
