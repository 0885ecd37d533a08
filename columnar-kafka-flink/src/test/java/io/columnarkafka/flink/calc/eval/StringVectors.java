package io.columnarkafka.flink.calc.eval;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;

/** Arrow string columns of given bytes, valid UTF-8 or not, for the tests of the calc's string functions. */
final class StringVectors {
    private StringVectors() {}

    /** A column {@code s} of the values, in order; the caller closes it. */
    static VarCharVector of(BufferAllocator allocator, List<byte[]> values) {
        VarCharVector strings = new VarCharVector("s", allocator);
        strings.allocateNew(values.size());
        for (int r = 0; r < values.size(); r++) {
            strings.setSafe(r, values.get(r));
        }
        strings.setValueCount(values.size());
        return strings;
    }

    /** The bytes of the given unsigned values. */
    static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int k = 0; k < values.length; k++) {
            bytes[k] = (byte) values[k];
        }
        return bytes;
    }
}
