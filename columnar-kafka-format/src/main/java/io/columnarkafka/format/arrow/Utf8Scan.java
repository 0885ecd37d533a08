package io.columnarkafka.format.arrow;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Classifies a region of UTF-8 bytes in Arrow memory, eight bytes at a time (SWAR over longs), so a
 * string column whose batch needs no escaping at all is written by bulk copies.
 *
 * <p>A region is {@linkplain #CLEAN clean} when it is well-formed UTF-8 without any byte Jackson
 * escapes (below 0x20, {@code "}, {@code \}) and without 4-byte sequences (which Jackson writes as
 * escaped surrogate pairs). Well-formedness follows the Unicode table the JDK decoder enforces, so a
 * clean value decodes to a Java String whose UTF-8 re-encoding is the same bytes.
 */
public final class Utf8Scan {
    /** No byte needs escaping or decoding; may still contain 2- and 3-byte sequences. */
    public static final int CLEAN = 0;
    /** Some value needs the escaping path (control chars, quotes, backslashes, 4-byte sequences). */
    public static final int ESCAPE = 1;
    /** Some bytes are malformed UTF-8: they decode to U+FFFD, so bytes no longer equal strings. */
    public static final int MALFORMED = 2;
    /** Some byte is above 0x7F, so value boundaries must be checked against sequence boundaries. */
    public static final int NON_ASCII = 4;

    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;

    private Utf8Scan() {}

    /** Flags ({@link #ESCAPE}, {@link #MALFORMED}, {@link #NON_ASCII}) for {@code [address, +length)}. */
    public static int scan(long address, long length) {
        int flags = CLEAN;
        long i = 0;
        while (i < length) {
            if (length - i >= 8 && isPlainAscii(MemoryUtil.getLong(address + i))) {
                i += 8;
                continue;
            }
            int c = MemoryUtil.getByte(address + i) & 0xFF;
            if (c < 0x80) {
                if (c < 0x20 || c == '"' || c == '\\') {
                    flags |= ESCAPE;
                }
                i++;
                continue;
            }
            flags |= NON_ASCII;
            int n = sequenceLength(address + i, length - i);
            if (n <= 0) {
                return flags | ESCAPE | MALFORMED;
            }
            if (n == 4) {
                flags |= ESCAPE;
            }
            i += n;
        }
        return flags;
    }

    /**
     * True if every byte of {@code [address, +length)} is ASCII that JSON writes raw (see {@link
     * #isPlainAscii(long)}): a string column whose batch passes is copied without looking at its bytes
     * again. Branch-free over four words per step, so the pass costs less than testing per value.
     */
    public static boolean isPlainAscii(long address, long length) {
        long all = -1L;
        long i = 0;
        for (; i + 32 <= length; i += 32) {
            all &= plainBytes(MemoryUtil.getLong(address + i)) & plainBytes(MemoryUtil.getLong(address + i + 8))
                    & plainBytes(MemoryUtil.getLong(address + i + 16))
                    & plainBytes(MemoryUtil.getLong(address + i + 24));
            if ((all & HIGHS) != HIGHS) {
                return false;
            }
        }
        for (; i + 8 <= length; i += 8) {
            all &= plainBytes(MemoryUtil.getLong(address + i));
        }
        for (; i < length; i++) {
            all &= plainBytes(MemoryUtil.getByte(address + i) & 0xFFL | (PLAIN_PAD & ~0xFFL));
        }
        return (all & HIGHS) == HIGHS;
    }

    /** ASCII letters that fill a word around a byte tested alone. */
    private static final long PLAIN_PAD = 0x6161616161616161L;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long BELOW_SPACE = 0x6060606060606060L;

    /**
     * The high bit of each byte of {@code w} set if that byte is plain (below 0x80, at least 0x20, not
     * {@code "} or {@code \}); exact per byte, as no sum carries into the next byte: on the low seven bits
     * {@code t}, {@code t + 0x60} reaches 0x80 from {@code t = 0x20} on, and {@code (t ^ c) + 0x7F} does
     * unless {@code t == c}.
     */
    private static long plainBytes(long w) {
        long t = w & LOW7;
        return ~w & (t + BELOW_SPACE) & ((t ^ QUOTES) + LOW7) & ((t ^ BACKSLASHES) + LOW7);
    }

    /**
     * True if no byte of {@code [address, +length)} is above 0x7F: ASCII, hence well-formed UTF-8 whose
     * values cannot split a sequence. Cheaper than {@link #scan} for a format that escapes nothing.
     */
    public static boolean isAscii(long address, long length) {
        long high = 0;
        long i = 0;
        for (; i + 8 <= length; i += 8) {
            high |= MemoryUtil.getLong(address + i);
        }
        for (; i < length; i++) {
            high |= MemoryUtil.getByte(address + i);
        }
        return (high & HIGHS) == 0;
    }

    /**
     * True if all eight bytes of {@code w} are ASCII that JSON writes raw: none above 0x7F, below 0x20,
     * {@code "} or {@code \}. (SWAR; the byte order of {@code w} does not matter.)
     */
    public static boolean isPlainAscii(long w) {
        return (plainBytes(w) & HIGHS) == HIGHS;
    }

    /**
     * The high bit of each byte of {@code w} that is not plain ASCII (see {@link #isPlainAscii(long)}), the
     * others zero: for a little-endian word, {@code Long.numberOfTrailingZeros(mask) >>> 3} is the index of
     * the first such byte, so a scan can jump straight to it.
     */
    public static long notPlainBytes(long w) {
        return ~plainBytes(w) & HIGHS;
    }

    /** True for a UTF-8 continuation byte 0x80..0xBF, which cannot start a value. */
    public static boolean isContinuation(long address) {
        return (MemoryUtil.getByte(address) & 0xC0) == 0x80;
    }

    /**
     * Length (2..4) of the well-formed UTF-8 sequence starting at {@code address} with a byte above
     * 0x7F, or 0 if it is malformed or cut off by {@code remaining}.
     */
    public static int sequenceLength(long address, long remaining) {
        int c = MemoryUtil.getByte(address) & 0xFF;
        int n;
        int lo = 0x80;
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0) {
                lo = 0xA0;
            } else if (c == 0xED) {
                hi = 0x9F;
            }
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0) {
                lo = 0x90;
            } else if (c == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return 0;
        }
        if (remaining < n) {
            return 0;
        }
        int second = MemoryUtil.getByte(address + 1) & 0xFF;
        if (second < lo || second > hi) {
            return 0;
        }
        for (int k = 2; k < n; k++) {
            if ((MemoryUtil.getByte(address + k) & 0xC0) != 0x80) {
                return 0;
            }
        }
        return n;
    }

    /**
     * True if one of values {@code 1..count-1} of a region that scanned as well-formed starts on a
     * continuation byte, i.e. inside another value's sequence: then values must be checked one by one.
     */
    public static boolean splitsSequence(long data, Offsets offsets, int count) {
        long last = offsets.last();
        for (int i = 1; i < count; i++) {
            long start = offsets.get(i);
            if (start < last && isContinuation(data + start)) {
                return true;
            }
        }
        return false;
    }
}
