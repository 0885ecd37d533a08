package io.columnarkafka.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The byte sink every encoder writes into, in the style of Jackson's {@code UTF8JsonGenerator}: a plain
 * {@code byte[]} and a position, public fields the JIT can hold in registers, with {@link #ensure(int)}
 * called once per value for that value's worst-case size; then writers store into {@link #buf} at
 * {@link #pos} directly. The array is the {@link RecordSlab}'s buffer; the position is stored back into
 * the slab at record boundaries only.
 *
 * <p>Text spelling (digits, dates, decimals) lives in {@code io.columnarkafka.format.text}.
 */
public final class ByteOutput {
    /** Stores a long read by {@code MemoryUtil.getLong} (native order) as the same eight bytes. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private RecordSlab slab;
    /** The array being written; may change on {@link #ensure(int)}. */
    public byte[] buf;
    /** The next byte to write in {@link #buf}. */
    public int pos;
    /** Row of the batch being written, for error messages. */
    private int row;

    /** An output on its own growing array, for bytes computed once when a plan is built. */
    public static ByteOutput standalone(int capacity) {
        ByteOutput out = new ByteOutput();
        out.buf = new byte[Math.max(16, capacity)];
        return out;
    }

    /** An output over a fixed scratch array that is known to be large enough. */
    public static ByteOutput over(byte[] scratch) {
        ByteOutput out = new ByteOutput();
        out.buf = scratch;
        return out;
    }

    /** Starts writing a batch into {@code target}, which has just been reset. */
    public void begin(RecordSlab target) {
        slab = target;
        buf = target.buffer();
        pos = target.position();
    }

    public void startRecord(int batchRow) {
        row = batchRow;
        slab.position(pos);
        slab.startRecord();
    }

    public void endRecord() {
        slab.position(pos);
        slab.endRecord();
    }

    /** Records a null record (negative length) for {@code batchRow}. */
    public void nullRecord(int batchRow) {
        row = batchRow;
        slab.position(pos);
        slab.nullRecord();
    }

    /** The batch row being written, for error messages. */
    public int row() {
        return row;
    }

    /** Makes room for {@code extra} bytes after {@link #pos}; {@link #buf} may change. */
    public void ensure(int extra) {
        if (buf.length - pos < extra) {
            if (slab == null) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
            } else {
                slab.position(pos);
                try {
                    buf = slab.ensure(extra);
                } catch (BatchTooLargeException e) {
                    throw e.atRow(row);
                }
            }
        }
    }

    /** As {@link #ensure(int)} for a size computed in longs, e.g. six output bytes per input byte. */
    public void ensure(long extra) {
        if (extra > Integer.MAX_VALUE) {
            throw new BatchTooLargeException(row, pos + extra, slab == null ? RecordSlab.MAX_CAPACITY
                    : slab.maxCapacity());
        }
        ensure((int) extra);
    }

    public void writeByte(byte b) {
        ensure(1);
        buf[pos++] = b;
    }

    public void writeBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    /** Copies {@code length} bytes of off-heap Arrow memory; the caller has ensured the room. */
    public void copyFromMemory(long address, int length) {
        MemoryUtil.copyFromMemory(address, buf, pos, length);
        pos += length;
    }

    /**
     * Stores the eight bytes of {@code word}, in the order {@code MemoryUtil.getLong} read them, at
     * {@code p} of {@code b}: one store instead of eight for writers that copy a word at a time.
     */
    public static void putWord(byte[] b, int p, long word) {
        WORDS.set(b, p, word);
    }

    /** Writes a string's chars, which must all be ASCII, one byte each. */
    public void writeAscii(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) ascii.charAt(i);
        }
    }

    /** The bytes written so far, for outputs made by {@link #standalone}. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    /**
     * Writes {@code value} as an unsigned base-128 varint (low groups first), as Avro and protobuf both
     * encode integers; the caller has ensured 10 bytes.
     */
    public void putVarint(long value) {
        byte[] b = buf;
        int p = pos;
        if ((value & ~0x7FL) == 0) { // tags, lengths and small numbers: one byte
            b[p] = (byte) value;
            pos = p + 1;
            return;
        }
        if ((value & ~0x3FFFL) == 0) { // lengths and numbers below 16384: two bytes, no loop
            b[p] = (byte) (value | 0x80);
            b[p + 1] = (byte) (value >>> 7);
            pos = p + 2;
            return;
        }
        while ((value & ~0x7FL) != 0) {
            b[p++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        b[p++] = (byte) value;
        pos = p;
    }

    /** Four bytes, little-endian; the caller has ensured them. */
    public void putIntLE(int bits) {
        byte[] b = buf;
        int p = pos;
        b[p] = (byte) bits;
        b[p + 1] = (byte) (bits >>> 8);
        b[p + 2] = (byte) (bits >>> 16);
        b[p + 3] = (byte) (bits >>> 24);
        pos = p + 4;
    }

    /** Eight bytes, little-endian; the caller has ensured them. */
    public void putLongLE(long bits) {
        putIntLE((int) bits);
        putIntLE((int) (bits >>> 32));
    }
}
