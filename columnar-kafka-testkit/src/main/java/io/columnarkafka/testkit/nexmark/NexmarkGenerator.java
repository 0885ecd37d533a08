package io.columnarkafka.testkit.nexmark;

import io.columnarkafka.format.RowTypes;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Deterministic Nexmark events following the distributions of the nexmark/nexmark suite's generator
 * ({@code GeneratorConfig}, {@code PersonGenerator}, {@code AuctionGenerator}, {@code BidGenerator},
 * {@code PriceGenerator}, {@code StringsGenerator}), as rows of the suite's Kafka table ({@link #EVENT_TYPE}:
 * {@code event_type} 0/1/2 and one non-null {@code person}, {@code auction} or {@code bid} row).
 *
 * <ul>
 *   <li>Event id {@code i} is a person, an auction or a bid by {@code i mod 50} (1:3:46); ids, sellers,
 *       bidders and auctions follow from {@code i} as in the suite (hot seller/bidder/auction: the first
 *       (sellers) or second (bidders) person, the first auction, of the latest block of 100).
 *   <li>Prices are {@code round(10^(6U) * 100)} cents; auctions last a random time averaging the event
 *       time in which 100 more auctions are created.
 *   <li>Event time is {@link NexmarkConfig#timestampForEvent}.
 * </ul>
 *
 * <p>Event {@code i} is a pure function of the seed and {@code i} (its own {@link SplittableRandom} is
 * seeded from both), so any range can be generated in any order. The suite's generator draws from one
 * sequence and (a slip) adds the person-id base twice to bidders; here bidder ids start at 1000 like
 * sellers, so bids by hot bidders match people. A generator is immutable; threads may share one.
 */
public final class NexmarkGenerator {
    public static final int PERSON = 0;
    public static final int AUCTION = 1;
    public static final int BID = 2;

    /**
     * The physical columns of the suite's Kafka table ({@code ddl_kafka.sql}). The suite declares the
     * strings {@code VARCHAR}; they are {@code STRING} here, which is what a SQL {@code VARCHAR} with no
     * length means to Flink's DDL and what its JSON format reads and writes alike.
     */
    public static final RowType EVENT_TYPE = RowTypes.parse("ROW<event_type INT,"
            + " person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING,"
            + " state STRING, dateTime TIMESTAMP(3), extra STRING>,"
            + " auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT,"
            + " dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,"
            + " bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
            + " dateTime TIMESTAMP(3), extra STRING>>");

    /** The suite numbers people and auctions from 1000 and categories from 10. */
    static final long FIRST_ID = 1000;
    private static final long FIRST_CATEGORY_ID = 10;
    private static final int CATEGORIES = 5;
    /** Hot sellers, bidders and auctions are the first of each block of this many. */
    private static final int HOT_BLOCK = 100;
    /** Ids a little ahead of the newest, so some bids and auctions come "before" their person or auction. */
    private static final int ID_LEAD = 10;

    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    private static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend",
        "Redmond", "Seattle", "Kent", "Cheyenne"};
    private static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie",
        "Sarah", "Deiter", "Walter"};
    private static final String[] LAST_NAMES = {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith",
        "Jones", "Noris"};

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final NexmarkConfig config;
    private final NexmarkStrings strings;
    private final NexmarkChannels channels;

    public NexmarkGenerator(NexmarkConfig config) {
        this.config = config;
        this.strings = new NexmarkStrings(config.seed() ^ 0x5EED5EEDL);
        this.channels = new NexmarkChannels(config.seed() ^ 0xC4A77E15L);
    }

    public NexmarkConfig config() {
        return config;
    }

    /** Event {@code eventId} as a row of {@link #EVENT_TYPE}. */
    public GenericRowData event(long eventId) {
        // Mixed, not the bare Weyl value: SplittableRandom steps its seed by the same GOLDEN per draw, so
        // seed + (i+1)·GOLDEN would make event i+1's draws event i's shifted by one.
        SplittableRandom random = new SplittableRandom(BidGenerator.mix(config.seed() + (eventId + 1) * GOLDEN));
        long timestamp = config.timestampForEvent(eventId);
        int type = config.eventType(eventId);
        return switch (type) {
            case PERSON -> GenericRowData.of(PERSON, person(eventId, random, timestamp), null, null);
            case AUCTION -> GenericRowData.of(AUCTION, null, auction(eventId, random, timestamp), null);
            default -> GenericRowData.of(BID, null, null, bid(eventId, random, timestamp));
        };
    }

    /** Cents, log-uniform over [100, 100,000,000]: {@code round(10^(6U) * 100)} for a uniform {@code U}. */
    public static long priceCents(double uniform) {
        return Math.round(Math.pow(10.0, uniform * 6.0) * 100.0);
    }

    private GenericRowData person(long eventId, SplittableRandom random, long timestamp) {
        long id = config.lastBase0PersonId(eventId) + FIRST_ID;
        String name = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)] + ' '
                + LAST_NAMES[random.nextInt(LAST_NAMES.length)];
        String email = NexmarkStrings.word(random, 7, ' ') + '@' + NexmarkStrings.word(random, 5, ' ') + ".com";
        String creditCard = String.format("%04d %04d %04d %04d", random.nextInt(10_000), random.nextInt(10_000),
                random.nextInt(10_000), random.nextInt(10_000));
        String city = CITIES[random.nextInt(CITIES.length)];
        String state = STATES[random.nextInt(STATES.length)];
        int size = 8 + name.length() + email.length() + creditCard.length() + city.length() + state.length();
        String extra = strings.extra(random, size, config.avgPersonBytes());
        return GenericRowData.of(id, text(name), text(email), text(creditCard), text(city), text(state),
                TimestampData.fromEpochMillis(timestamp), text(extra));
    }

    private GenericRowData auction(long eventId, SplittableRandom random, long timestamp) {
        long id = config.lastBase0AuctionId(eventId) + FIRST_ID;
        long seller = random.nextInt(config.hotSellersRatio()) > 0
                ? config.lastBase0PersonId(eventId) / HOT_BLOCK * HOT_BLOCK
                : randomPerson(eventId, random);
        long category = FIRST_CATEGORY_ID + random.nextInt(CATEGORIES);
        long initialBid = price(random);
        long expires = timestamp + auctionLengthMillis(eventId, random, timestamp);
        String itemName = NexmarkStrings.word(random, 20, ' ');
        String description = NexmarkStrings.word(random, 100, ' ');
        long reserve = initialBid + price(random);
        int size = 8 + itemName.length() + description.length() + 5 * 8;
        String extra = strings.extra(random, size, config.avgAuctionBytes());
        return GenericRowData.of(id, text(itemName), text(description), initialBid, reserve,
                TimestampData.fromEpochMillis(timestamp), TimestampData.fromEpochMillis(expires),
                seller + FIRST_ID, category, text(extra));
    }

    private GenericRowData bid(long eventId, SplittableRandom random, long timestamp) {
        long auction = random.nextInt(config.hotAuctionRatio()) > 0
                ? config.lastBase0AuctionId(eventId) / HOT_BLOCK * HOT_BLOCK
                : randomAuction(eventId, random);
        // The second person of the block, so hot bidders and hot sellers differ.
        long bidder = random.nextInt(config.hotBiddersRatio()) > 0
                ? config.lastBase0PersonId(eventId) / HOT_BLOCK * HOT_BLOCK + 1
                : randomPerson(eventId, random);
        long price = price(random);
        int channel = NexmarkChannels.pick(random);
        String extra = strings.extra(random, 4 * 8, config.avgBidBytes());
        return GenericRowData.of(auction + FIRST_ID, bidder + FIRST_ID, price, text(channels.name(channel)),
                text(channels.url(channel)), TimestampData.fromEpochMillis(timestamp), text(extra));
    }

    /** One of the active people (base 0), or a few ids ahead of the newest. */
    private long randomPerson(long eventId, SplittableRandom random) {
        long people = config.lastBase0PersonId(eventId) + 1;
        long active = Math.min(people, config.numActivePeople());
        return people - active + random.nextLong(active + ID_LEAD);
    }

    /** One of the auctions likely still in flight (base 0), or a few ids ahead of the newest. */
    private long randomAuction(long eventId, SplittableRandom random) {
        long last = config.lastBase0AuctionId(eventId);
        long first = Math.max(last - config.numInFlightAuctions(), 0);
        return first + random.nextLong(last - first + 1 + ID_LEAD);
    }

    /** Uniform in [1, 2 * h], h being the event time until {@code numInFlightAuctions} more auctions exist. */
    private long auctionLengthMillis(long eventId, SplittableRandom random, long timestamp) {
        long eventsForAuctions = (long) config.numInFlightAuctions() * config.totalProportion()
                / config.auctionProportion();
        long horizon = config.timestampForEvent(eventId + eventsForAuctions) - timestamp;
        return 1L + random.nextLong(Math.max(horizon * 2, 1L));
    }

    private static long price(SplittableRandom random) {
        return priceCents(random.nextDouble());
    }

    private static StringData text(String value) {
        return StringData.fromString(value);
    }
}
