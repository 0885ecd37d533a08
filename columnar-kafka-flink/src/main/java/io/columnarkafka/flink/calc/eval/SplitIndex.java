package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * SPLIT_INDEX(str, literal separator, literal index) as {@code SqlFunctionUtils#splitIndex}: the string
 * split on every occurrence of the whole separator, left to right, keeping empty tokens (commons-lang's
 * {@code splitByWholeSeparatorPreserveAllTokens}); the token at the index, or null when the index is
 * negative or past the last token. An empty string has no tokens. Separators are non-empty (the compiler
 * refuses an empty one, which Flink treats as whitespace); byte matching equals char matching in UTF-8.
 */
final class SplitIndex extends UnaryNode {
    private final byte[] separator;
    private final int index;

    SplitIndex(Node operand, byte[] separator, int index, LogicalType type) {
        super(operand, type);
        this.separator = separator;
        this.index = index;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = true;
            if (in.nulls[i] || index < 0 || in.lengths[i] == 0) {
                continue;
            }
            int end = in.starts[i] + in.lengths[i];
            int tokenStart = in.starts[i];
            int token = 0;
            while (true) {
                int at = Utf8.indexOf(in.bytes, tokenStart, end, separator);
                int tokenEnd = at < 0 ? end : at;
                if (token == index) {
                    out.appendString(i, in.bytes, tokenStart, tokenEnd - tokenStart);
                    break;
                }
                if (at < 0) {
                    break;
                }
                tokenStart = at + separator.length;
                token++;
            }
        }
    }
}
