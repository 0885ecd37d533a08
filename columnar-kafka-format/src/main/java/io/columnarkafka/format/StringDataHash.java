package io.columnarkafka.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code hashCode()} of Flink's {@code BinaryStringData} holding given UTF-8 bytes, computed on the bytes
 * without building the StringData: Flink hashes a materialized string with Murmur3 (seed 42) over its bytes
 * ({@code BinarySegmentUtils.hash}, {@code MurmurHashUtils.hashBytes}), whole 4-byte words read in the
 * machine's byte order as its {@code MemorySegment.getInt} reads them, then each remaining byte as a signed
 * int. Map keys that Flink puts into a {@code java.util.HashMap} as {@code StringData} are bucketed by it.
 */
public final class StringDataHash {
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final int SEED = 42;

    private StringDataHash() {}

    /** The hash of the StringData whose UTF-8 bytes are {@code bytes[offset, offset + length)}. */
    public static int of(byte[] bytes, int offset, int length) {
        int words = length - length % 4;
        int h = SEED;
        for (int i = 0; i < words; i += 4) {
            h = mixH1(h, mixK1((int) WORD.get(bytes, offset + i)));
        }
        for (int i = words; i < length; i++) {
            h = mixH1(h, mixK1(bytes[offset + i]));
        }
        return fmix(h ^ length);
    }

    private static int mixK1(int k) {
        return Integer.rotateLeft(k * 0xCC9E2D51, 15) * 0x1B873593;
    }

    private static int mixH1(int h, int k) {
        return Integer.rotateLeft(h ^ k, 13) * 5 + 0xE6546B64;
    }

    private static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ h >>> 16;
    }
}
