package io.columnarkafka.testkit.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
    private static final int EVENTS = 100_000;
    private final NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.defaults(42));

    @Test
    void anEventIsAPureFunctionOfSeedAndId() {
        NexmarkGenerator again = new NexmarkGenerator(NexmarkConfig.defaults(42));
        NexmarkGenerator other = new NexmarkGenerator(NexmarkConfig.defaults(43));
        int differing = 0;
        for (long i : new long[] {0, 1, 3, 4, 49, 50, 12_345, 99_999_999}) {
            assertThat(again.event(i)).as("event %d", i).isEqualTo(generator.event(i));
            if (!other.event(i).equals(generator.event(i))) {
                differing++;
            }
        }
        assertThat(differing).isEqualTo(8);
    }

    /**
     * Each event's random stream must be independent of its neighbours'. Seeding event {@code i} with
     * {@code seed + (i+1)·γ} (γ being the increment {@code SplittableRandom} adds per draw) made event
     * {@code i+1}'s k-th draw equal event {@code i}'s (k+1)-th, so some consecutive bids came out identical.
     */
    @Test
    void consecutiveBidsDrawIndependently() {
        int pairs = 0;
        int identical = 0;
        GenericRowData previous = generator.event(0);
        for (long i = 1; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            if (previous.getInt(0) == NexmarkGenerator.BID && event.getInt(0) == NexmarkGenerator.BID) {
                pairs++;
                RowData a = previous.getRow(3, 7);
                RowData b = event.getRow(3, 7);
                if (a.getLong(2) == b.getLong(2) && a.getString(6).equals(b.getString(6))) {
                    identical++;
                }
            }
            previous = event;
        }
        assertThat(pairs).isGreaterThan(80_000);
        assertThat(identical).as("consecutive bids with the same price and extra").isZero();
    }

    @Test
    void personAuctionBidByEventIdModFifty() {
        int[] counts = new int[3];
        long nextPerson = 1000;
        long nextAuction = 1000;
        for (long i = 0; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            int type = event.getInt(0);
            int offset = (int) (i % 50);
            assertThat(type).as("event %d", i).isEqualTo(offset == 0 ? 0 : offset <= 3 ? 1 : 2);
            for (int column = 1; column <= 3; column++) {
                assertThat(event.isNullAt(column)).as("event %d column %d", i, column).isEqualTo(column != type + 1);
            }
            counts[type]++;
            if (type == 0) {
                assertThat(event.getRow(1, 8).getLong(0)).isEqualTo(nextPerson++);
            } else if (type == 1) {
                assertThat(event.getRow(2, 10).getLong(0)).isEqualTo(nextAuction++);
            }
        }
        assertThat(counts).containsExactly(EVENTS / 50, EVENTS / 50 * 3, EVENTS / 50 * 46);
    }

    @Test
    void hotAuctionsBiddersAndSellersFollowTheRatios() {
        int bids = 0;
        int hotAuction = 0;
        int hotBidder = 0;
        int auctions = 0;
        int hotSeller = 0;
        for (long i = 0; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            long lastPerson = i / 50;
            long lastAuction = i / 50 * 3 + Math.min(Math.max(i % 50 - 1, 0), 2) - (i % 50 == 0 ? 1 : 0);
            if (event.getInt(0) == 2) {
                RowData bid = event.getRow(3, 7);
                bids++;
                hotAuction += bid.getLong(0) == 1000 + lastAuction / 100 * 100 ? 1 : 0;
                hotBidder += bid.getLong(1) == 1000 + lastPerson / 100 * 100 + 1 ? 1 : 0;
                assertThat(bid.getLong(1)).isBetween(1000L, 1000 + lastPerson + 10);
            } else if (event.getInt(0) == 1) {
                RowData auction = event.getRow(2, 10);
                auctions++;
                hotSeller += auction.getLong(7) == 1000 + lastPerson / 100 * 100 ? 1 : 0;
                assertThat(auction.getLong(8)).isBetween(10L, 14L);
                assertThat(auction.getTimestamp(6, 3).getMillisecond())
                        .isGreaterThan(auction.getTimestamp(5, 3).getMillisecond());
            }
        }
        // Hot auction 1 - 1/2 of the bids, hot bidder and hot seller 1 - 1/4 (a cold pick may hit the hot one).
        assertThat((double) hotAuction / bids).isBetween(0.49, 0.53);
        assertThat((double) hotBidder / bids).isBetween(0.74, 0.77);
        assertThat((double) hotSeller / auctions).isBetween(0.73, 0.78);
    }

    @Test
    void pricesAreLogUniformInCents() {
        int bids = 0;
        int belowMedian = 0;
        int belowTenDollars = 0;
        for (long i = 0; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            if (event.getInt(0) == 2) {
                long price = event.getRow(3, 7).getLong(2);
                assertThat(price).isBetween(100L, 100_000_000L);
                bids++;
                belowMedian += price < 100_000 ? 1 : 0;
                belowTenDollars += price < 1000 ? 1 : 0;
            }
        }
        // P(10^(6U) * 100 < 10^5) = 1/2, P(< 10^3) = 1/6.
        assertThat((double) belowMedian / bids).isBetween(0.49, 0.51);
        assertThat((double) belowTenDollars / bids).isBetween(0.16, 0.173);
    }

    @Test
    void channelsAreFourNamedOnesAndTenThousandGenerated() {
        Map<String, String> urlOfChannel = new HashMap<>();
        Set<String> generated = new HashSet<>();
        int bids = 0;
        int named = 0;
        int generatedWithId = 0;
        for (long i = 0; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            if (event.getInt(0) != 2) {
                continue;
            }
            RowData bid = event.getRow(3, 7);
            String channel = bid.getString(3).toString();
            String url = bid.getString(4).toString();
            bids++;
            assertThat(urlOfChannel.computeIfAbsent(channel, c -> url)).as("one URL per channel").isEqualTo(url);
            assertThat(url).matches("https://www\\.nexmark\\.com/[a-z_]+/[a-z_]+/[a-z_]+/item\\.htm\\?query=1"
                    + "(&channel_id=-?\\d+)?"); // channel-1: abs(reverse(1)) is MIN_VALUE, as in the suite
            if (Set.of(NexmarkChannels.NAMED).contains(channel)) {
                named++;
                assertThat(url).doesNotContain("channel_id");
            } else {
                assertThat(channel).matches("channel-\\d{1,4}");
                generated.add(channel);
                if (url.contains("&channel_id=")) {
                    generatedWithId++;
                    int n = Integer.parseInt(channel.substring("channel-".length()));
                    assertThat(url).endsWith("&channel_id=" + Math.abs(Integer.reverse(n)));
                }
            }
        }
        assertThat((double) named / bids).isBetween(0.49, 0.51);
        assertThat((double) generatedWithId / (bids - named)).isBetween(0.88, 0.92);
        assertThat(generated.size()).isGreaterThan(8_000);
    }

    @Test
    void extraFieldsPadEventsToTheAverageSizes() {
        long[] size = new long[3];
        long[] count = new long[3];
        for (long i = 0; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            int type = event.getInt(0);
            RowData row = event.getRow(type + 1, new int[] {8, 10, 7}[type]);
            count[type]++;
            size[type] += switch (type) {
                case 0 -> 8 + row.getString(1).toString().length() + row.getString(2).toString().length()
                        + row.getString(3).toString().length() + row.getString(4).toString().length()
                        + row.getString(5).toString().length() + row.getString(7).toString().length();
                case 1 -> 8 + row.getString(1).toString().length() + row.getString(2).toString().length() + 40
                        + row.getString(9).toString().length();
                default -> 32 + row.getString(6).toString().length();
            };
        }
        assertThat((double) size[0] / count[0]).isBetween(196.0, 204.0);
        assertThat((double) size[1] / count[1]).isBetween(495.0, 505.0);
        assertThat((double) size[2] / count[2]).isBetween(99.0, 101.0);
    }

    @Test
    void eventTimeAdvancesWithTheRate() {
        NexmarkGenerator slow = new NexmarkGenerator(NexmarkConfig.defaults(42).withEventsPerSecond(1000));
        for (long i : new long[] {0, 9, 10, 49, 50, 99_999}) {
            assertThat(dateTime(generator.event(i))).isEqualTo(NexmarkConfig.BASE_EPOCH_MILLIS + i / 10);
            assertThat(dateTime(slow.event(i))).isEqualTo(NexmarkConfig.BASE_EPOCH_MILLIS + i);
        }
    }

    private static long dateTime(GenericRowData event) {
        int type = event.getInt(0);
        RowData row = event.getRow(type + 1, new int[] {8, 10, 7}[type]);
        return row.getTimestamp(type == 2 ? 5 : type == 1 ? 5 : 6, 3).getMillisecond();
    }
}
