package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * FLOAT and DOUBLE (Arrow FloatingPoint SINGLE and DOUBLE) spelled by {@link Float#toString} and {@link
 * Double#toString}, as Jackson writes them; NaN and the infinities as quoted strings.
 *
 * <p>The spelling goes through a reused {@link StringBuilder}: its {@code append(float/double)} runs the
 * same JDK conversion as {@code toString} (in JDK 17 {@code FloatingDecimal}, in later JDKs the
 * shortest-decimal algorithm) but allocates no String per value.
 */
final class FloatingJsonWriter extends FlatJsonWriter {
    /** Longest spelling, {@code -2.2250738585072014E-308}, and room for quotes. */
    private static final int MAX_BYTES = 24 + 2;

    private final boolean single;
    private final StringBuilder text = new StringBuilder(MAX_BYTES);
    private long data;

    /** A FLOAT column if {@code single}, else DOUBLE. */
    FloatingJsonWriter(String path, boolean single) {
        super(path);
        this.single = single;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * (single ? 4 : 8), "data");
    }

    @Override
    long maxBytes() {
        return MAX_BYTES;
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        StringBuilder chars = text;
        chars.setLength(0);
        boolean finite;
        if (single) {
            float value = Float.intBitsToFloat(MemoryUtil.getInt(data + 4L * index));
            chars.append(value);
            finite = Float.isFinite(value);
        } else {
            double value = Double.longBitsToDouble(MemoryUtil.getLong(data + 8L * index));
            chars.append(value);
            finite = Double.isFinite(value);
        }
        byte[] b = out.buf;
        if (!finite) {
            b[p++] = '"';
        }
        for (int i = 0; i < chars.length(); i++) {
            b[p++] = (byte) chars.charAt(i);
        }
        if (!finite) {
            b[p++] = '"';
        }
        return p;
    }
}
