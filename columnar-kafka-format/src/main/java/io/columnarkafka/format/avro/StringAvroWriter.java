package io.columnarkafka.format.avro;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.HashMapOrder;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/**
 * CHAR / VARCHAR (Arrow Utf8 or LargeUtf8) as an Avro string. Flink writes {@code new Utf8(s.toString())}:
 * the value decoded to a Java String and encoded again, which gives back the same bytes for well-formed
 * UTF-8. Each batch's data region is scanned once; only when it holds malformed bytes (or a value starts
 * inside another's sequence) is each value checked, and a malformed one goes through the JDK's decoder and
 * encoder as Flink's does.
 */
final class StringAvroWriter extends AvroValueWriter implements HashMapOrder.Keys {
    private final Offsets offsets = new Offsets();
    private long data;
    private boolean checkEach;

    StringAvroWriter(String path, boolean nullable) {
        super(path, nullable);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarCharVector);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
        int flags = Utf8Scan.scan(data + offsets.first(), offsets.last() - offsets.first());
        checkEach = (flags & Utf8Scan.MALFORMED) != 0
                || ((flags & Utf8Scan.NON_ASCII) != 0 && Utf8Scan.splitsSequence(data, offsets, count));
    }

    @Override
    void write(ByteOutput out, int index) {
        long start = data + offsets.get(index);
        int length = length(path, offsets.get(index + 1) - offsets.get(index));
        if (checkEach && (Utf8Scan.scan(start, length) & Utf8Scan.MALFORMED) != 0) {
            AvroBinary.writeBytes(out, reencode(start, length));
        } else {
            AvroBinary.writeBytes(out, start, length);
        }
    }

    /** The bytes Flink writes for malformed UTF-8: decoded by the JDK (U+FFFD replacements), re-encoded. */
    static byte[] reencode(long address, int length) {
        byte[] bytes = new byte[length];
        MemoryUtil.copyFromMemory(address, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    static int length(String path, long length) {
        if (length > Integer.MAX_VALUE) {
            throw new BatchLayoutException(path, "a value of " + length + " bytes is too long");
        }
        return (int) length;
    }

    long start(int index) {
        return data + offsets.get(index);
    }

    int length(int index) {
        return length(path, offsets.get(index + 1) - offsets.get(index));
    }

    @Override
    public long hash(int entry) {
        return HashMapOrder.stringHash(start(entry), length(entry));
    }

    @Override
    public boolean same(int a, int b) {
        return HashMapOrder.sameBytes(start(a), length(a), start(b), length(b));
    }
}
