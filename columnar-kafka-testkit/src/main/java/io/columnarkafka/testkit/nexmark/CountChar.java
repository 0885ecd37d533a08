package io.columnarkafka.testkit.nexmark;

import org.apache.flink.table.functions.ScalarFunction;

/** q14's {@code count_char(text, c)}: how often character {@code c} occurs in {@code text} (the suite's UDF). */
public final class CountChar extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    public long eval(String text, String c) {
        if (text == null || c == null || c.isEmpty()) {
            return 0;
        }
        char wanted = c.charAt(0);
        long count = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == wanted) {
                count++;
            }
        }
        return count;
    }
}
