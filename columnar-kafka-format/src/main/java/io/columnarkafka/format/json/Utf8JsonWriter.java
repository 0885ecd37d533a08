package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/**
 * CHAR / VARCHAR (Arrow Utf8 or LargeUtf8) as JSON strings.
 *
 * <p>When a batch is bound, the column's whole data region is tested once for bytes that need care
 * ({@link Utf8Scan#isPlainAscii(long, long)}: escapes, non-ASCII). A plain column, the common case, is
 * then copied value by value eight bytes at a time without looking at the bytes again. Otherwise each
 * value is copied a word at a time while its words are plain ASCII, and from the first word that needs
 * care (escapes, non-ASCII, malformed UTF-8) the rest of the value goes through {@link JsonStrings}. A
 * tail shorter than a word is checked as the last eight bytes of the value, overlapping the words
 * already copied; a value shorter than a word is read as one word of the data buffer with the bytes
 * past the value masked out of the test.
 *
 * <p>As map keys, whose equality decides duplicates, the batch's data region is also classified once
 * ({@link #mayHaveMalformed}).
 */
final class Utf8JsonWriter extends FlatJsonWriter {
    private final Offsets offsets = new Offsets();
    private final boolean classify;
    /** Short values are read as one word, which needs the value's bytes to be its low bytes. */
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    /** Plain ASCII filling the bytes of a word beyond a short value, so only the value's bytes are tested. */
    private static final long PAD = 0x6161616161616161L;
    /**
     * Room besides a value's bytes: two quotes and up to seven bytes a word-wide copy stores past the
     * value (overwritten by what follows), or the whole word stored for a value shorter than a word.
     */
    private static final int EXTRA_BYTES = 2 + 8;

    private long data;
    /** End of the data buffer's memory: a word read below it stays inside the buffer. */
    private long dataEnd;
    /** Every byte of this batch's values is ASCII that JSON writes raw. */
    private boolean plain;
    private int scanFlags;

    /** A value column. */
    Utf8JsonWriter(String path) {
        this(path, false);
    }

    /** With {@code classify}, each batch is scanned for {@link #mayHaveMalformed} (map keys). */
    Utf8JsonWriter(String path, boolean classify) {
        super(path);
        this.classify = classify;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarCharVector);
        ArrowBuf buffer = vector.getDataBuffer();
        data = address(buffer, offsets.last(), "data");
        dataEnd = data == 0 ? 0 : data + buffer.capacity();
        long first = offsets.first();
        plain = Utf8Scan.isPlainAscii(data + first, offsets.last() - first);
        if (classify) {
            int flags = plain ? Utf8Scan.CLEAN : Utf8Scan.scan(data + first, offsets.last() - first);
            if (flags == Utf8Scan.NON_ASCII && Utf8Scan.splitsSequence(data, offsets, count)) {
                // Valid as a whole, but a value starts inside another's sequence: decide value by value.
                flags |= Utf8Scan.ESCAPE | Utf8Scan.MALFORMED;
            }
            scanFlags = flags;
        }
    }

    @Override
    long maxBytes() {
        long longest = offsets.maxLength();
        return (plain ? longest : longest * JsonStrings.MAX_BYTES_PER_BYTE) + EXTRA_BYTES;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        long start = offsets.get(index);
        int n = (int) (offsets.get(index + 1) - start);
        if (plain) {
            return putPlain(out.buf, p, data + start, n);
        }
        out.pos = p;
        writeChecked(out, data + start, n);
        return out.pos;
    }

    @Override
    void write(ByteOutput out, int index) {
        // This value's own room, not the batch's longest (map keys and array elements write one by one).
        long start = offsets.get(index);
        long length = offsets.get(index + 1) - start;
        if (plain) {
            out.ensure(length + EXTRA_BYTES);
            out.pos = putPlain(out.buf, out.pos, data + start, (int) length);
        } else {
            writeChecked(out, data + start, (int) length);
        }
    }

    /** A value of a plain batch: quotes around a word-wide copy; {@link #EXTRA_BYTES} of room besides. */
    private int putPlain(byte[] b, int p, long address, int n) {
        b[p++] = '"';
        if (address + n + 8 <= dataEnd) {
            // Whole words, the last one reaching past the value (inside the data buffer); the bytes stored
            // past the value are overwritten by the closing quote and what follows.
            for (int i = 0; i < n; i += 8) {
                ByteOutput.putWord(b, p + i, MemoryUtil.getLong(address + i));
            }
        } else {
            MemoryUtil.copyFromMemory(address, b, p, n);
        }
        p += n;
        b[p] = '"';
        return p + 1;
    }

    /** A value that may need escaping: makes its own room. */
    private void writeChecked(ByteOutput out, long address, int n) {
        // Quotes and a clean copy (at least one whole word); the escaping path ensures its own worst case.
        out.ensure(Math.max(n, 8) + 2);
        byte[] b = out.buf;
        int p = out.pos;
        b[p++] = '"';
        int i = 0;
        if (n < 8) {
            if (n > 0 && LITTLE_ENDIAN && address + 8 <= dataEnd) {
                // One word holding the value and the bytes after it (in the buffer); only the value's
                // bytes are tested, and the bytes stored past it are overwritten by what follows.
                long w = MemoryUtil.getLong(address);
                long value = -1L >>> (64 - 8 * n);
                if (Utf8Scan.isPlainAscii((w & value) | (PAD & ~value))) {
                    ByteOutput.putWord(b, p, w);
                    i = n;
                }
            }
        } else {
            while (i <= n - 8) {
                long w = MemoryUtil.getLong(address + i);
                if (!Utf8Scan.isPlainAscii(w)) {
                    break;
                }
                ByteOutput.putWord(b, p + i, w);
                i += 8;
            }
            if (i < n && i > n - 8) {
                // All whole words were plain; the tail is the value's last word, overlapping.
                long w = MemoryUtil.getLong(address + n - 8);
                if (Utf8Scan.isPlainAscii(w)) {
                    ByteOutput.putWord(b, p + n - 8, w);
                    i = n;
                }
            }
        }
        out.pos = p + i;
        if (i == n) {
            out.buf[out.pos++] = '"';
        } else {
            out.ensure((long) (n - i) * JsonStrings.MAX_BYTES_PER_BYTE);
            JsonStrings.writeUtf8(out, address + i, n - i);
            out.writeByte((byte) '"');
        }
    }

    /** True if some value of this batch is malformed UTF-8, so equal strings may differ in bytes. */
    boolean mayHaveMalformed() {
        return (scanFlags & Utf8Scan.MALFORMED) != 0;
    }

    long start(int index) {
        return data + offsets.get(index);
    }

    int length(int index) {
        long length = offsets.get(index + 1) - offsets.get(index);
        if (length > Integer.MAX_VALUE) {
            throw new BatchLayoutException(path, "a string of " + length + " bytes is too long");
        }
        return (int) length;
    }

    /** The value at {@code index} as Flink sees it: decoded from UTF-8. For the rare paths only. */
    String decode(int index) {
        byte[] bytes = new byte[length(index)];
        MemoryUtil.copyFromMemory(start(index), bytes, 0, bytes.length);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
