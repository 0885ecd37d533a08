package io.columnarkafka.testkit.nexmark;

/**
 * The Nexmark generator's settings, with the suite's defaults ({@code NexmarkConfiguration} of
 * nexmark/nexmark): of every {@link #totalProportion()} events, event ids {@code 0 .. person-1} of the
 * epoch are new people, the next {@code auction} ids new auctions, the rest bids; 1 in {@code
 * hot*Ratio} choices is cold (any active person / in-flight auction), the others go to the hot one;
 * extra fields pad each event to about {@code avg*Bytes}; event time advances by {@code 1 /
 * eventsPerSecond} per event from {@code baseTimeMillis}.
 *
 * @param seed every value is a function of the seed and the event id
 * @param eventsPerSecond the event-time rate: event {@code i} happens {@code i / eventsPerSecond} s after the base
 * @param baseTimeMillis event time of event 0, epoch milliseconds
 */
public record NexmarkConfig(
        long seed,
        int eventsPerSecond,
        long baseTimeMillis,
        int personProportion,
        int auctionProportion,
        int bidProportion,
        int hotAuctionRatio,
        int hotBiddersRatio,
        int hotSellersRatio,
        int numActivePeople,
        int numInFlightAuctions,
        int avgPersonBytes,
        int avgAuctionBytes,
        int avgBidBytes) {

    /** 2015-07-15T00:00:00Z, the event time of event 0 (the demo's bids start there too). */
    public static final long BASE_EPOCH_MILLIS = 1_436_918_400_000L;

    public NexmarkConfig {
        if (eventsPerSecond <= 0 || personProportion <= 0 || auctionProportion <= 0 || bidProportion <= 0) {
            throw new IllegalArgumentException("rate and proportions must be positive");
        }
    }

    /** The suite's defaults: 10,000 events/s, 1:3:46, hot ratios 2 (auctions), 4 (bidders, sellers). */
    public static NexmarkConfig defaults(long seed) {
        return new NexmarkConfig(seed, 10_000, BASE_EPOCH_MILLIS, 1, 3, 46, 2, 4, 4, 1000, 100, 200, 500, 100);
    }

    public NexmarkConfig withEventsPerSecond(int rate) {
        return new NexmarkConfig(seed, rate, baseTimeMillis, personProportion, auctionProportion, bidProportion,
                hotAuctionRatio, hotBiddersRatio, hotSellersRatio, numActivePeople, numInFlightAuctions,
                avgPersonBytes, avgAuctionBytes, avgBidBytes);
    }

    public int totalProportion() {
        return personProportion + auctionProportion + bidProportion;
    }

    /** The event time of event {@code eventId}, as the suite computes it (whole microseconds of delay, then ms). */
    public long timestampForEvent(long eventId) {
        double interEventDelayMicros = 1_000_000.0 / eventsPerSecond;
        return baseTimeMillis + (long) (eventId * interEventDelayMicros) / 1000L;
    }

    /** {@link NexmarkGenerator#PERSON}, {@link NexmarkGenerator#AUCTION} or {@link NexmarkGenerator#BID}. */
    public int eventType(long eventId) {
        long offset = eventId % totalProportion();
        if (offset < personProportion) {
            return NexmarkGenerator.PERSON;
        }
        return offset < personProportion + auctionProportion ? NexmarkGenerator.AUCTION : NexmarkGenerator.BID;
    }

    /** The newest person id (base 0) at this event: the person being created, or the epoch's last. */
    long lastBase0PersonId(long eventId) {
        long epoch = eventId / totalProportion();
        long offset = Math.min(eventId % totalProportion(), personProportion - 1);
        return epoch * personProportion + offset;
    }

    /** The newest auction id (base 0) at this event: the auction being created, or the latest before it. */
    long lastBase0AuctionId(long eventId) {
        long epoch = eventId / totalProportion();
        long offset = eventId % totalProportion();
        if (offset < personProportion) {
            epoch--;
            offset = auctionProportion - 1;
        } else if (offset >= personProportion + auctionProportion) {
            offset = auctionProportion - 1;
        } else {
            offset -= personProportion;
        }
        return epoch * auctionProportion + offset;
    }
}
