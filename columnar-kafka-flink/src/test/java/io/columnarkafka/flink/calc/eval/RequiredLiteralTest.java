package io.columnarkafka.flink.calc.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Which literal a regex's matches must hold, as {@link RegexpExtract} skips strings without it; the values are
 * compared with Flink's in {@code CalcParityProperties#strings}.
 */
class RequiredLiteralTest {
    @Test
    void theLongestTopLevelRunOfPlainCharactersNotQuantified() {
        assertThat(RequiredLiteral.of("(&|^)channel_id=([^&]*)")).hasToString("channel_id=");
        assertThat(RequiredLiteral.of("apple,?(.)")).hasToString("apple");
        assertThat(RequiredLiteral.of("a{1,2}&(.*)")).hasToString("&");
        assertThat(RequiredLiteral.of("x?yz*")).hasToString("y");
        assertThat(RequiredLiteral.of("[a-z]+q(r)st")).hasToString("st");
    }

    @Test
    void noneWhereThePatternIsNotReadSimply() {
        for (String regex : new String[] {"ab|cd", "\\d+x", "(?i)abc", "[]a]bc", "[^]a]bc", "(a)", ".*", "a*b?"}) {
            assertThat(RequiredLiteral.of(regex)).as(regex).isNull();
        }
    }

    @Test
    void findsTheLiteralAnywhereInTheBytes() {
        RequiredLiteral literal = RequiredLiteral.of("(&|^)channel_id=([^&]*)");
        byte[] url = "x/item.htm?query=1&channel_id=42".getBytes(StandardCharsets.UTF_8);
        assertThat(literal.isIn(url, 0, url.length)).isTrue();
        assertThat(literal.isIn(url, 0, url.length - 3)).isFalse();
        assertThat(literal.isIn(url, 19, url.length - 19)).isTrue();
        assertThat(literal.isIn(url, 20, url.length - 20)).isFalse();
    }
}
