package io.columnarkafka.flink.calc.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which DATE_FORMAT patterns keep the last day's text: date fields only, quoted text aside. The values are compared
 * with Flink's in {@code CalcParityProperties.dateFormatOfRowsOnFewDaysGivesFlinksText}, on these patterns.
 */
class DateFormatTest {
    @Test
    void patternsOfDateFieldsOnlyKeepTheDaysText() {
        assertThat(DateFormat.datesOnly("yyyy-MM-dd")).isTrue();
        assertThat(DateFormat.datesOnly("EEE d MMM yyyy")).isTrue();
        assertThat(DateFormat.datesOnly("D 'at' uuuu")).as("letters inside quotes are text").isTrue();
        assertThat(DateFormat.datesOnly("yyyy''MM''dd")).as("'' is a quote, not a quoted section").isTrue();
    }

    @Test
    void patternsWithATimeOfDayOrAnUnknownLetterFormatEveryRow() {
        assertThat(DateFormat.datesOnly("yyyy-MM-dd HH")).isFalse();
        assertThat(DateFormat.datesOnly("dd HH:mm:ss.SSSSSS")).isFalse();
        assertThat(DateFormat.datesOnly("'day' d h a")).isFalse();
        assertThat(DateFormat.datesOnly("yyyy-MM-dd B")).as("day period").isFalse();
        assertThat(DateFormat.datesOnly("yyyy-MM-dd'T'HH")).isFalse();
        assertThat(DateFormat.datesOnly("g")).as("a letter the list does not know").isFalse();
    }
}
