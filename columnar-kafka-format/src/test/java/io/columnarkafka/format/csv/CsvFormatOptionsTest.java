package io.columnarkafka.format.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.commons.text.StringEscapeUtils;
import org.junit.jupiter.api.Test;

/** The field delimiter is unescaped exactly as Flink's factory does, with Commons Text's {@code unescapeJava}. */
class CsvFormatOptionsTest {
    @Test
    void unescapeJavaAgreesWithCommonsText() {
        for (String s : List.of("", ",", "\\", "\\t", "\\n", "\\r", "\\f", "\\b", "\\\\", "\\'", "\\\"", "\\u0001",
                "\\u00e9", "\\uZZZZ", "\\u12", "\\0", "\\01", "\\001", "\\377", "\\400", "\\7", "\\x", "a\\", "a\\t",
                "\\t\\t", ";;", "\\u00411")) {
            String expected;
            try {
                expected = StringEscapeUtils.unescapeJava(s);
            } catch (IllegalArgumentException e) {
                assertThatThrownBy(() -> CsvFormatOptions.unescapeJava(s)).as(s)
                        .isInstanceOf(IllegalArgumentException.class);
                continue;
            }
            assertThat(CsvFormatOptions.unescapeJava(s)).as(s).isEqualTo(expected);
        }
    }
}
