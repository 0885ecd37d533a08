package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * SUBSTRING(str, pos [, len]) as {@code BinaryStringDataUtil#substringSQL}: positions count code points
 * from 1; a negative position counts from the end; position 0 starts at the first character; a negative
 * length gives null; a start past either end gives the empty string; without a length, to the end.
 * Null when any operand is null.
 */
final class Substring extends Node {
    private final Node string;
    private final Node position;
    /** Null: no length operand, i.e. to the end. */
    private final Node length;

    Substring(Node string, Node position, Node length, LogicalType type) {
        super(type);
        this.string = string;
        this.position = position;
        this.length = length;
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        string.evaluate(batch, sel, n);
        position.evaluate(batch, sel, n);
        if (length != null) {
            length.evaluate(batch, sel, n);
        }
        Column s = string.out;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (s.nulls[i] || position.out.nulls[i] || (length != null && length.out.nulls[i])) {
                out.nulls[i] = true;
                continue;
            }
            int pos = (int) position.out.longs[i];
            int len = length == null ? Integer.MAX_VALUE : (int) length.out.longs[i];
            if (len < 0) {
                out.nulls[i] = true;
                continue;
            }
            int from = s.starts[i];
            int size = s.lengths[i];
            int chars = Utf8.numChars(s.bytes, from, size);
            int start;
            if (pos > 0) {
                start = pos - 1;
            } else if (pos < 0) {
                start = chars + pos;
            } else {
                start = 0;
            }
            if (size == 0 || start < 0 || start >= chars) {
                out.setString(i, out.reserve(0), 0);
                continue;
            }
            int end = chars - start < len ? chars : start + len;
            int begin = skipChars(s.bytes, from, from + size, start);
            int stop = skipChars(s.bytes, begin, from + size, end - start);
            out.appendString(i, s.bytes, begin, stop - begin);
        }
    }

    /** The byte position {@code count} characters after {@code at}, not past {@code limit}. */
    private static int skipChars(byte[] bytes, int at, int limit, int count) {
        for (int c = 0; c < count && at < limit; c++) {
            at += Utf8.numBytesForFirstByte(bytes[at]);
        }
        return Math.min(at, limit);
    }
}
