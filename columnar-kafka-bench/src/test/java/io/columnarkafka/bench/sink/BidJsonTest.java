package io.columnarkafka.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.nexmark.BidIndex;
import org.junit.jupiter.api.Test;

/** The verifier's row id comes back out of Flink's own JSON of each row (the oracle), whatever its fraction. */
class BidJsonTest {
    @Test
    void rowIndexReadsBackEveryRowOfFlinksJson() throws Exception {
        // 0..2999 covers dateTime fractions written as none (.000), one, two and three digits.
        byte[][] values = BidJson.valuePool(3000);
        for (int i = 0; i < values.length; i++) {
            assertThat(BidIndex.ofJson(values[i])).as("row %d", i).isEqualTo(i);
        }
    }

    @Test
    void aValueWithoutDateTimeHasNoIndex() {
        assertThat(BidIndex.ofJson("{\"auction\":1}".getBytes())).isEqualTo(-1);
    }
}
