package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.ValueVector;

/**
 * BINARY / VARBINARY (Arrow Binary or LargeBinary) as a quoted Base64 string: the standard alphabet
 * with {@code =} padding and no line breaks, Jackson's default variant.
 */
final class BinaryJsonWriter extends JsonValueWriter {
    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Offsets offsets = new Offsets();
    private long data;

    BinaryJsonWriter(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarBinaryVector);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        long address = data + offsets.get(index);
        long length = offsets.get(index + 1) - offsets.get(index);
        out.ensure((length + 2) / 3 * 4 + 2);
        byte[] b = out.buf;
        int p = out.pos;
        b[p++] = '"';
        long end = address + length;
        long whole = address + length / 3 * 3;
        for (long a = address; a < whole; a += 3) {
            int bits = (MemoryUtil.getByte(a) & 0xFF) << 16
                    | (MemoryUtil.getByte(a + 1) & 0xFF) << 8
                    | (MemoryUtil.getByte(a + 2) & 0xFF);
            b[p] = ALPHABET[bits >>> 18];
            b[p + 1] = ALPHABET[(bits >>> 12) & 0x3F];
            b[p + 2] = ALPHABET[(bits >>> 6) & 0x3F];
            b[p + 3] = ALPHABET[bits & 0x3F];
            p += 4;
        }
        long rest = end - whole;
        if (rest > 0) {
            int bits = (MemoryUtil.getByte(whole) & 0xFF) << 16;
            if (rest == 2) {
                bits |= (MemoryUtil.getByte(whole + 1) & 0xFF) << 8;
            }
            b[p] = ALPHABET[bits >>> 18];
            b[p + 1] = ALPHABET[(bits >>> 12) & 0x3F];
            b[p + 2] = rest == 2 ? ALPHABET[(bits >>> 6) & 0x3F] : (byte) '=';
            b[p + 3] = '=';
            p += 4;
        }
        b[p++] = '"';
        out.pos = p;
    }
}
