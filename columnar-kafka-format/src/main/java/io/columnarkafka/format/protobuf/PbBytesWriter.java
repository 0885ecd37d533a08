package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/**
 * CHAR / VARCHAR as protobuf string, BINARY / VARBINARY as bytes: length, then the bytes. Flink sets
 * {@code StringData.toString()}, which protobuf encodes back to UTF-8: the same bytes for well-formed
 * UTF-8; a malformed value goes through the JDK's decoder and encoder (U+FFFD replacements) as in Flink.
 * A null element is {@code write-null-string-literal} for strings, empty for bytes. A string map key
 * hashes as {@code String.hashCode()}.
 */
final class PbBytesWriter extends PbWriter implements PbMapKey {
    private final Offsets offsets = new Offsets();
    private final boolean text;
    private final byte[] nullElement;
    private long data;
    private boolean checkEach;

    PbBytesWriter(String path, PbField field, boolean text, String nullLiteral) {
        super(path, field);
        this.text = text;
        this.nullElement = text ? nullLiteral.getBytes(StandardCharsets.UTF_8) : new byte[0];
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        boolean large = vector instanceof LargeVarCharVector || vector instanceof LargeVarBinaryVector;
        offsets.bind(path, vector.getOffsetBuffer(), count, large);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
        // one scan per batch; a value starting inside another's sequence would hide from it, so check each
        checkEach = text && !Utf8Scan.isAscii(data + offsets.first(), offsets.last() - offsets.first());
    }

    long start(int index) {
        return data + offsets.get(index);
    }

    int length(int index) {
        long length = offsets.get(index + 1) - offsets.get(index);
        if (length > Integer.MAX_VALUE) {
            throw new BatchLayoutException(path, "a value of " + length + " bytes is too long");
        }
        return (int) length;
    }

    @Override
    void write(ByteOutput out, int index) {
        int length = length(index);
        long start = start(index);
        if (checkEach && (Utf8Scan.scan(start, length) & Utf8Scan.MALFORMED) != 0) {
            writeHeap(out, reencode(start, length));
            return;
        }
        out.ensure(PbWire.MAX_VARINT + length);
        out.putVarint(length);
        out.copyFromMemory(start, length);
    }

    /** As {@link PbWriter#writeField}, reading the offsets once and making room for the field at once. */
    @Override
    void writeField(ByteOutput out, int index) {
        if (isNull(index) || checkEach) {
            super.writeField(out, index);
            return;
        }
        int length = length(index);
        if (length == 0 && !presence) {
            return;
        }
        out.ensure(tag.length + PbWire.MAX_VARINT + length);
        putTag(out);
        out.putVarint(length);
        out.copyFromMemory(data + offsets.get(index), length);
    }

    /**
     * As {@link #writeField} for a column that is not required, in a batch of {@link #plain} values; the
     * caller has ensured the field's bytes (at most {@link #maxFieldBytes} plus the value's length).
     */
    void putField(ByteOutput out, int index) {
        if (isNull(index)) {
            return;
        }
        long start = offsets.get(index);
        int length = (int) (offsets.get(index + 1) - start);
        if (length == 0 && !presence) {
            return;
        }
        putTag(out);
        out.putVarint(length);
        out.copyFromMemory(data + start, length);
    }

    /** True if the bound batch's values are written as they are (no malformed UTF-8 to re-encode). */
    boolean plain() {
        return !checkEach;
    }

    /** Bytes of every value of the bound batch together. */
    long valueBytes() {
        return offsets.last() - offsets.first();
    }

    /** The most bytes {@link #putField} writes besides the value itself. */
    int maxFieldBytes() {
        return tag.length + PbWire.MAX_VARINT;
    }

    @Override
    void writeDefault(ByteOutput out) {
        writeHeap(out, nullElement);
    }

    private static void writeHeap(ByteOutput out, byte[] bytes) {
        out.ensure(PbWire.MAX_VARINT + bytes.length);
        out.putVarint(bytes.length);
        System.arraycopy(bytes, 0, out.buf, out.pos, bytes.length);
        out.pos += bytes.length;
    }

    @Override
    boolean isDefault(int index) {
        return length(index) == 0;
    }

    /** The bytes Flink's String of malformed UTF-8 encodes to: decoded by the JDK, re-encoded. */
    private static byte[] reencode(long address, int length) {
        byte[] bytes = new byte[length];
        MemoryUtil.copyFromMemory(address, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public long hash(int entry) {
        if (isNull(entry)) {
            return new String(nullElement, StandardCharsets.UTF_8).hashCode() & 0xFFFFFFFFL;
        }
        return HashMapOrder.stringHash(start(entry), length(entry));
    }

    @Override
    public boolean same(int a, int b) {
        if (isNull(a) || isNull(b)) {
            return javaKey(a).equals(javaKey(b));
        }
        return HashMapOrder.sameBytes(start(a), length(a), start(b), length(b));
    }

    @Override
    public Object javaKey(int entry) {
        if (isNull(entry)) {
            return new String(nullElement, StandardCharsets.UTF_8);
        }
        byte[] bytes = new byte[length(entry)];
        MemoryUtil.copyFromMemory(start(entry), bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
