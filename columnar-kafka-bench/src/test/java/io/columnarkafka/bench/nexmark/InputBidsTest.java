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
    void aFixedRateRunCountsEveryBidExactlyOnce() {
        InputBids input = InputBids.of(Map.of(1001L, 5L, 1002L, 2L));

        assertThat(input.mismatch(List.of("1001\t5", "1002\t2"))).isNull();
        assertThat(input.mismatch(List.of("1002\t2", "1001\t5"))).as("in any order").isNull();
        assertThat(input.mismatch(List.of("1001\t3", "1001\t2", "1002\t2")))
                .as("a bidder's windows summed").isNull();
        assertThat(input.mismatch(List.of("1001\t5")))
                .isEqualTo("1 bidder(s) not counted exactly once per bid (bidder 1002 counted 0 times, 2 bids in the"
                        + " input); 5 of the input's 7 bids in closed windows");
        assertThat(input.mismatch(List.of("1001\t4", "1002\t3")))
                .startsWith("2 bidder(s) not counted exactly once per bid (bidder 1001 counted 4 times, 5 bids");
        assertThat(input.mismatch(List.of("1001\t5", "1002\t2", "1003\t1")))
                .startsWith("1 bidder(s) not counted exactly once per bid (bidder 1003 counted 1 times, 0 bids");
        assertThat(input.mismatch(List.of())).startsWith("2 bidder(s)");
    }

    @Test
    void theInputsBidsAreTheGeneratorsBids() {
        NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.defaults(42));
        InputBids input = InputBids.of(generator, 5000);

        // 46 of every 50 events are bids.
        assertThat(input.share(List.of())).isEqualTo("0 of the input's 4,600 bids in closed windows");
        long bidder = generator.event(10).getRow(3, 7).getLong(1);
        assertThat(input.violation(List.of(bidder + "\t1"))).isNull();
        // The exact check against the generator's own events, counted here bid by bid.
        java.util.Map<Long, Long> counted = new java.util.TreeMap<>();
        for (long i = 0; i < 5000; i++) {
            var event = generator.event(i);
            if (event.getInt(0) == NexmarkGenerator.BID) {
                counted.merge(event.getRow(3, 7).getLong(1), 1L, Long::sum);
            }
        }
        List<String> entries = new java.util.ArrayList<>();
        counted.forEach((b, n) -> entries.add(b + "\t" + n));
        assertThat(input.mismatch(entries)).isNull();
        entries.set(0, entries.get(0).replaceAll("\t\\d+$", "\t0"));
        assertThat(input.mismatch(entries)).startsWith("1 bidder(s)");
    }
}
