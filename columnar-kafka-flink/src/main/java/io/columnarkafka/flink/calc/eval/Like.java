package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * LIKE with a literal pattern of one of the four shapes Flink's code generator turns into a byte-level
 * {@code BinaryStringData} test: {@code abc} (equals), {@code abc%} (startsWith), {@code %abc} (endsWith),
 * {@code %abc%} (contains), where abc holds no {@code %} or {@code _}. Other patterns are refused.
 */
final class Like extends UnaryNode {
    enum Shape { EQUALS, STARTS_WITH, ENDS_WITH, CONTAINS }

    private final Shape shape;
    private final byte[] needle;

    Like(Node operand, Shape shape, byte[] needle, LogicalType type) {
        super(operand, type);
        this.shape = shape;
        this.needle = needle;
    }

    /** The shape of a LIKE pattern without escape, or null when it is none of the four. */
    static Shape shapeOf(String pattern) {
        if (pattern.contains("_")) {
            return null;
        }
        int percents = (int) pattern.chars().filter(c -> c == '%').count();
        boolean first = pattern.startsWith("%");
        boolean last = pattern.length() > 1 && pattern.endsWith("%");
        int inner = pattern.length() - (first ? 1 : 0) - (last ? 1 : 0);
        if (inner <= 0 || percents != (first ? 1 : 0) + (last ? 1 : 0)) {
            return null;
        }
        return first ? (last ? Shape.CONTAINS : Shape.ENDS_WITH) : (last ? Shape.STARTS_WITH : Shape.EQUALS);
    }

    /** The literal text of a pattern of a known shape. */
    static String needleOf(String pattern, Shape shape) {
        int from = shape == Shape.ENDS_WITH || shape == Shape.CONTAINS ? 1 : 0;
        int to = shape == Shape.STARTS_WITH || shape == Shape.CONTAINS ? pattern.length() - 1 : pattern.length();
        return pattern.substring(from, to);
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            if (in.nulls[i]) {
                continue;
            }
            int start = in.starts[i];
            int length = in.lengths[i];
            boolean match;
            switch (shape) {
                case EQUALS:
                    match = length == needle.length && Utf8.regionMatches(in.bytes, start, needle);
                    break;
                case STARTS_WITH:
                    match = length >= needle.length && Utf8.regionMatches(in.bytes, start, needle);
                    break;
                case ENDS_WITH:
                    match = length >= needle.length
                            && Utf8.regionMatches(in.bytes, start + length - needle.length, needle);
                    break;
                case CONTAINS:
                    match = Utf8.indexOf(in.bytes, start, start + length, needle) >= 0;
                    break;
                default:
                    throw new IllegalStateException(shape.name());
            }
            out.longs[i] = match ? 1 : 0;
        }
    }
}
