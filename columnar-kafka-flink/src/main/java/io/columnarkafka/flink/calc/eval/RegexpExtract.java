package io.columnarkafka.flink.calc.eval;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * REGEXP_EXTRACT(str, literal regex, literal group) as {@code SqlFunctionUtils#regexpExtract}: Java's
 * regex, the first match found anywhere in the string, that group; null when the string is null, nothing
 * matches, the group did not take part, or the group does not exist (Flink catches that error and
 * returns null). The pattern is compiled once; ASCII strings are matched in place. A string without the
 * pattern's {@link RequiredLiteral} (when it has one) cannot match and is null without running the regex.
 */
final class RegexpExtract extends UnaryNode {
    private final Matcher matcher;
    private final int group;
    private final AsciiChars ascii = new AsciiChars();
    /** Null when the pattern has none. */
    private final RequiredLiteral required;

    RegexpExtract(Node operand, Pattern pattern, int group, LogicalType type) {
        super(operand, type);
        this.matcher = pattern.matcher("");
        this.group = group;
        this.required = pattern.flags() == 0 ? RequiredLiteral.of(pattern.pattern()) : null;
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
            if (required != null && !required.isIn(in.bytes, start, length)) {
                continue;
            }
            if (Utf8.isAscii(in.bytes, start, length)) {
                matcher.reset(ascii.wrap(in.bytes, start, length));
                if (matcher.find() && matcher.start(group) >= 0) {
                    out.appendString(i, in.bytes, start + matcher.start(group), matcher.end(group) - matcher.start(group));
                }
            } else {
                matcher.reset(new String(in.bytes, start, length, StandardCharsets.UTF_8));
                if (matcher.find() && matcher.start(group) >= 0) {
                    byte[] found = matcher.group(group).getBytes(StandardCharsets.UTF_8);
                    out.appendString(i, found, 0, found.length);
                }
            }
        }
        matcher.reset("");
    }
}
