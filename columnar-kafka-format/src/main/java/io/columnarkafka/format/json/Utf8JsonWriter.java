package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.arrow.Utf8Scan;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/**
 * CHAR / VARCHAR (Arrow Utf8 or LargeUtf8) as JSON strings. Each batch's data region is scanned once
 * ({@link Utf8Scan}); when nothing in it needs escaping or decoding, which is the common case, every
 * value is one bulk copy between quotes. Otherwise each value goes through {@link JsonStrings}.
 */
final class Utf8JsonWriter extends JsonValueWriter {
    private final Offsets offsets = new Offsets();
    private long data;
    private boolean bulk;
    private int scanFlags;

    Utf8JsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarCharVector);
        ArrowBuf buffer = vector.getDataBuffer();
        data = address(buffer, offsets.last(), "data");
        long first = offsets.first();
        long last = offsets.last();
        int flags = Utf8Scan.scan(data + first, last - first);
        if (flags == Utf8Scan.NON_ASCII && Utf8Scan.splitsSequence(data, offsets, count)) {
            // Valid as a whole, but a value starts inside another's sequence: decide value by value.
            flags |= Utf8Scan.ESCAPE | Utf8Scan.MALFORMED;
        }
        scanFlags = flags;
        bulk = (flags & Utf8Scan.ESCAPE) == 0;
    }

    @Override
    void write(ByteOutput out, int index) {
        long start = offsets.get(index);
        long length = offsets.get(index + 1) - start;
        if (bulk) {
            out.ensure(length + 2);
            out.buf[out.pos++] = '"';
            out.copyFromMemory(data + start, (int) length);
            out.buf[out.pos++] = '"';
        } else {
            out.ensure(length * JsonStrings.MAX_BYTES_PER_BYTE + 2);
            out.buf[out.pos++] = '"';
            JsonStrings.writeUtf8(out, data + start, (int) length);
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
