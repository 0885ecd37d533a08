package io.columnarkafka.format.avro;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * DECIMAL(p, s) (Arrow Decimal128, a little-endian two's complement unscaled value) as Avro bytes holding
 * the unscaled value big-endian in the fewest bytes that keep its sign, which is what Flink's
 * {@code DecimalData.toUnscaledBytes()} ({@code BigInteger.toByteArray()}) gives. A value with more digits
 * than the precision fails: Flink could not hold it in a {@code DecimalData}.
 */
final class DecimalAvroWriter extends FixedWidthAvroWriter {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final int precision;
    private final int scale;

    DecimalAvroWriter(String path, boolean nullable, int precision, int scale) {
        super(path, nullable, 16);
        this.precision = precision;
        this.scale = scale;
    }

    @Override
    void write(ByteOutput out, int index) {
        long low = MemoryUtil.getLong(data + 16L * index);
        long high = MemoryUtil.getLong(data + 16L * index + 8);
        boolean fitsLong = high == (low >> 63);
        if (fitsLong && precision < POWERS_OF_TEN.length && low != Long.MIN_VALUE
                && Math.abs(low) < POWERS_OF_TEN[precision]) {
            int length = bitLength(low) / 8 + 1;
            out.ensure(1 + length);
            AvroBinary.putLong(out, length);
            for (int i = length - 1; i >= 0; i--) {
                out.buf[out.pos++] = (byte) (low >>> (8 * i));
            }
            return;
        }
        BigInteger unscaled = new BigInteger(bigEndian(low, high));
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(precision)) >= 0) {
            throw new EncodeException(path, out.row(), "decimal " + new BigDecimal(unscaled, scale).toPlainString()
                    + " has more digits than DECIMAL(" + precision + ", " + scale + ") holds");
        }
        AvroBinary.writeBytes(out, unscaled.toByteArray());
    }

    /** Bits of a two's complement value without its sign bit, as {@code BigInteger.bitLength}. */
    private static int bitLength(long value) {
        return 64 - Long.numberOfLeadingZeros(value < 0 ? ~value : value);
    }

    private static byte[] bigEndian(long low, long high) {
        byte[] bytes = new byte[16];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (high >>> (56 - 8 * i));
            bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return bytes;
    }
}
