package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * REGEXP_EXTRACT(str, literal regex, literal group) as {@code SqlFunctionUtils#regexpExtract}: Java's
 * regex, the first match found anywhere in the string, that group; null when the string is null, nothing
 * matches, the group did not take part, or the group does not exist (Flink catches that error and
 * returns null). The pattern is compiled once; ASCII strings are matched in place. A pattern of the {@link
 * KeyValuePattern} shape is matched on the bytes without the regex, its group copied when it is ASCII (else, for the
 * bytes Flink's decoding and encoding of the string would give, the regex runs on the decoded string). Otherwise a
 * string without the pattern's {@link RequiredLiteral} (when it has one) cannot match and is null without running
 * the regex.
 */
final class RegexpExtract extends UnaryNode {
    private final Matcher matcher;
    private final int group;
    private final AsciiChars ascii = new AsciiChars();
    /** Null when the pattern is not of its shape. */
    private final KeyValuePattern keyValue;
    /** Null when the pattern has none, or is matched as a {@link KeyValuePattern}. */
    private final RequiredLiteral required;

    RegexpExtract(Node operand, Pattern pattern, int group, LogicalType type) {
        super(operand, type);
        this.matcher = pattern.matcher("");
        this.group = group;
        this.keyValue = pattern.flags() == 0 ? KeyValuePattern.of(pattern.pattern()) : null;
        this.required = pattern.flags() == 0 && keyValue == null ? RequiredLiteral.of(pattern.pattern()) : null;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        boolean groupExists = group >= 0 && group <= matcher.groupCount();
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = true;
            if (in.nulls[i] || !groupExists) {
                continue;
            }
            int start = in.starts[i];
            int length = in.lengths[i];
            if (keyValue != null) {
                if (keyValue.find(in.bytes, start, length)) {
                    int from = keyValue.groupStart(group);
                    int to = keyValue.groupEnd(group);
                    if (Utf8.isAscii(in.bytes, from, to - from)) {
                        out.appendString(i, in.bytes, from, to - from);
                    } else {
                        extractFromDecoded(in, i);
                    }
                }
                continue;
            }
            if (required != null && !required.isIn(in.bytes, start, length)) {
                continue;
            }
            if (Utf8.isAscii(in.bytes, start, length)) {
                matcher.reset(ascii.wrap(in.bytes, start, length));
                if (matcher.find() && matcher.start(group) >= 0) {
                    out.appendString(i, in.bytes, start + matcher.start(group), matcher.end(group) - matcher.start(group));
                }
            } else {
                extractFromDecoded(in, i);
            }
        }
        matcher.reset("");
    }

    /** True when the pattern is matched on the bytes ({@link KeyValuePattern}), for the tests that claim it. */
    boolean matchesWithoutRegex() {
        return keyValue != null;
    }

    private void extractFromDecoded(Column in, int row) {
        matcher.reset(new String(in.bytes, in.starts[row], in.lengths[row], StandardCharsets.UTF_8));
        if (matcher.find() && matcher.start(group) >= 0) {
            byte[] found = matcher.group(group).getBytes(StandardCharsets.UTF_8);
            out.appendString(row, found, 0, found.length);
        }
    }
}
