package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * q12's check: a bidder counted at most as often as it bid passes (windows left open at the end of the input
 * count fewer), one counted more often, or a bidder not in the input, fails; the input's counts are the
 * generator's bids.
 */
class InputBidsTest {
    @Test
    void aBidderCountedMoreOftenThanItBidFails() {
        InputBids input = InputBids.of(Map.of(1001L, 5L, 1002L, 2L));

        assertThat(input.violation(List.of("1001\t5", "1002\t2"))).isNull();
        assertThat(input.violation(List.of("1001\t3"))).as("windows still open at the end are not counted").isNull();
        assertThat(input.violation(List.of("1001\t5", "1002\t3")))
                .isEqualTo("bidder 1002 counted 3 times, 2 bids in the input");
        assertThat(input.violation(List.of("1003\t1"))).isEqualTo("bidder 1003 counted 1 times, 0 bids in the input");
        assertThat(input.share(List.of("1001\t3", "1002\t2"))).isEqualTo("5 of the input's 7 bids in closed windows");
    }

    @Test
    void theInputsBidsAreTheGeneratorsBids() {
        NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.defaults(42));
        InputBids input = InputBids.of(generator, 5000);

        // 46 of every 50 events are bids.
        assertThat(input.share(List.of())).isEqualTo("0 of the input's 4,600 bids in closed windows");
        long bidder = generator.event(10).getRow(3, 7).getLong(1);
        assertThat(input.violation(List.of(bidder + "\t1"))).isNull();
    }
}
