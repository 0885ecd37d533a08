package io.columnarkafka.flink.calc.eval;

/** Byte-level operations on UTF-8 strings, with Flink's {@code BinaryStringData} semantics. */
final class Utf8 {
    private Utf8() {}

    /** {@code BinaryStringData#compareTo}: unsigned bytes, then the length. */
    static int compare(byte[] a, int aStart, int aLength, byte[] b, int bStart, int bLength) {
        int common = Math.min(aLength, bLength);
        for (int k = 0; k < common; k++) {
            int x = a[aStart + k] & 0xff;
            int y = b[bStart + k] & 0xff;
            if (x != y) {
                return x - y;
            }
        }
        return aLength - bLength;
    }

    /** True when the bytes at {@code at} start with {@code needle} (the caller checks the bounds). */
    static boolean regionMatches(byte[] bytes, int at, byte[] needle) {
        for (int k = 0; k < needle.length; k++) {
            if (bytes[at + k] != needle[k]) {
                return false;
            }
        }
        return true;
    }

    /** First position {@code >= from} of {@code needle} wholly inside {@code bytes[from, end)}, or -1. */
    static int indexOf(byte[] bytes, int from, int end, byte[] needle) {
        int last = end - needle.length;
        for (int at = from; at <= last; at++) {
            if (regionMatches(bytes, at, needle)) {
                return at;
            }
        }
        return -1;
    }

    /** True when no byte of the range has the high bit set. */
    static boolean isAscii(byte[] bytes, int start, int length) {
        for (int k = start, end = start + length; k < end; k++) {
            if (bytes[k] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code BinaryStringData#numChars}: the number of sequences, each counted by the length its first byte
     * announces (for valid UTF-8, the code points; a non-BMP character counts one).
     */
    static int numChars(byte[] bytes, int start, int length) {
        int count = 0;
        int end = start + length;
        for (int k = start; k < end; k += numBytesForFirstByte(bytes[k])) {
            count++;
        }
        return count;
    }

    /** The sequence length a UTF-8 first byte announces, as Flink's {@code BinaryStringData} reads it. */
    static int numBytesForFirstByte(byte b) {
        if (b >= 0) {
            return 1;
        } else if ((b >> 5) == -2 && (b & 0x1e) != 0) {
            return 2;
        } else if ((b >> 4) == -2) {
            return 3;
        } else if ((b >> 3) == -2) {
            return 4;
        }
        return 1;
    }
}
