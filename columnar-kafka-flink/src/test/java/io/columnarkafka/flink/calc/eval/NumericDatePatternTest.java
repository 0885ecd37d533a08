package io.columnarkafka.flink.calc.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which DATE_FORMAT patterns are written without Java's formatter, so the Flink-oracle cases of
 * {@code CalcParityProperties#dateFormats} cover both paths.
 */
class NumericDatePatternTest {
    @Test
    void numericFieldsAndPlainLiteralsAreWrittenWithoutTheFormatter() {
        for (String pattern : new String[] {"yyyy-MM-dd", "HH:mm", "yyyy/M/d H:m:s", "dd.MM.uuuu, HH:mm:ss.SSS",
            "uuuuMMddHHmmssSSSSSS", "S|SS|SSSSSSSSS"}) {
            assertThat(NumericDatePattern.of(pattern)).as(pattern).isNotNull();
        }
    }

    @Test
    void textQuotesAndOtherWidthsStayWithTheFormatter() {
        for (String pattern : new String[] {"yyyy-MM-dd'T'HH", "yy-MMM-d", "EEE d MMM yyyy", "yyy", "yyyyy", "HHH",
            "SSSSSSSSSS", "[HH]", "hh:mm a", "dd#"}) {
            assertThat(NumericDatePattern.of(pattern)).as(pattern).isNull();
        }
    }

    @Test
    void writesTheFieldsAsJavasFormatterSpellsThem() {
        int[] fields = new int[TimestampText.FIELD_COUNT];
        TimestampText.fields(1_600_000_000_123L, 456_789, fields);
        NumericDatePattern pattern = NumericDatePattern.of("yyyy-M-d H:m:s.SSSSSSSS|HH");
        byte[] text = new byte[pattern.maxLength()];
        int length = pattern.write(fields, text, 0);
        assertThat(new String(text, 0, length, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo(java.time.format.DateTimeFormatter.ofPattern("yyyy-M-d H:m:s.SSSSSSSS|HH")
                        .format(java.time.LocalDateTime.ofEpochSecond(1_600_000_000L, 123_456_789,
                                java.time.ZoneOffset.UTC)));
    }
}
