package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * LOWER and UPPER as {@code BinaryStringData#toLowerCase/toUpperCase}: an all-ASCII string maps byte by
 * byte with {@link Character#toLowerCase(int)} (locale-free); any other string goes through Java's
 * {@link String#toLowerCase()} / {@link String#toUpperCase()} in the default locale. (Flink takes that
 * Java path for every string it built from a Java String; the two agree on ASCII except in the tr, az and
 * lt locales, where the compiler refuses these functions.)
 */
final class CaseConversion extends UnaryNode {
    private final boolean lower;

    CaseConversion(boolean lower, Node operand, LogicalType type) {
        super(operand, type);
        this.lower = lower;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (in.nulls[i]) {
                out.nulls[i] = true;
                continue;
            }
            int start = in.starts[i];
            int length = in.lengths[i];
            if (Utf8.isAscii(in.bytes, start, length)) {
                int at = out.reserve(length);
                byte[] to = out.bytes;
                for (int b = 0; b < length; b++) {
                    int c = in.bytes[start + b];
                    to[at + b] = (byte) (lower ? Character.toLowerCase(c) : Character.toUpperCase(c));
                }
                out.setString(i, at, length);
            } else {
                String s = new String(in.bytes, start, length, StandardCharsets.UTF_8);
                byte[] converted = (lower ? s.toLowerCase() : s.toUpperCase()).getBytes(StandardCharsets.UTF_8);
                out.appendString(i, converted, 0, converted.length);
            }
        }
    }
}
