package io.columnarkafka.testkit.nexmark;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Deterministic Nexmark-like Bid rows (bids only, for the demo and the sink benchmark; {@link
 * NexmarkGenerator} makes the full Nexmark event stream), the same rows as Arrow batches (for the columnar encoders) and as
 * Flink {@link GenericRowData} (for Flink's serializers). Row {@code i} is a pure function of the seed and
 * {@code i}, so any range can be produced in any order, by any number of producers, and still agree.
 *
 * <p>The shape follows Nexmark's bid generator: of every 50 events 1 is a new person, 3 are new
 * auctions and 46 are bids; 99 in 100 bids go to the current hot auction, from the current hot bidder,
 * through one of four hot channels; prices are log-uniform between 1.00 and 1,000,000.00 (in cents);
 * {@code extra} is filler text. With the defaults Flink's JSON of a row is about 230 bytes.
 *
 * <p>Strings come from byte pools built once from the seed, so filling a batch creates no per-row
 * objects. A generator is immutable once built, so threads may share one.
 */
public final class BidGenerator {
    /**
     * The Bid row type. Strings are {@code STRING} (unbounded {@code VARCHAR}); a bare {@code VARCHAR}
     * in Flink means {@code VARCHAR(1)}.
     */
    public static final RowType BID_TYPE = RowTypes.parse(
            "ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                    + " dateTime TIMESTAMP(3), extra STRING>");

    /** Event time of row 0: 2015-07-15T00:00:00Z; row {@code i} is {@code i} milliseconds later. */
    public static final long BASE_EPOCH_MILLIS = NexmarkConfig.BASE_EPOCH_MILLIS;

    private static final long FIRST_ID = NexmarkGenerator.FIRST_ID;
    /** Nexmark's default event mix per 50 events: 46 bids, 3 new auctions, 1 new person. */
    private static final int BIDS_PER_EPOCH = 46;
    private static final int AUCTIONS_PER_EPOCH = 3;
    /** One bid in this many goes to a random (not hot) auction, bidder or channel. */
    private static final int HOT_RATIO = 100;
    /** How far back a cold bid may reach among the open auctions / known people. */
    private static final int COLD_AUCTION_WINDOW = 100;
    private static final int COLD_BIDDER_WINDOW = 1000;

    private static final String[] HOT_CHANNELS = NexmarkChannels.NAMED;
    private static final int COLD_CHANNELS = 1024;

    private static final int FILLER_BYTES = 8192;
    private static final int EXTRA_MIN = 16;
    private static final int EXTRA_SPAN = 25;
    /** Pool keys at and above this build the filler; keys below build the URLs. */
    private static final long FILLER_KEY = 1L << 20;

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long seed;
    private final byte[][] channels;
    private final byte[][] urls;
    private final byte[] filler;

    public BidGenerator(long seed) {
        this.seed = seed;
        int poolSize = HOT_CHANNELS.length + COLD_CHANNELS;
        this.channels = new byte[poolSize][];
        this.urls = new byte[poolSize][];
        for (int c = 0; c < poolSize; c++) {
            String channel = c < HOT_CHANNELS.length ? HOT_CHANNELS[c] : "channel-" + (c - HOT_CHANNELS.length);
            channels[c] = channel.getBytes(StandardCharsets.US_ASCII);
            urls[c] = url(c).getBytes(StandardCharsets.US_ASCII);
        }
        this.filler = new byte[FILLER_BYTES];
        for (int b = 0; b < FILLER_BYTES; b++) {
            long r = poolRandom(FILLER_KEY + b);
            // Mostly lower-case letters with a space now and then, like Nexmark's random strings.
            filler[b] = bounded(r, 13) == 0 ? (byte) ' ' : (byte) ('a' + bounded(r << 31, 26));
        }
    }

    /** Nexmark's item URL: three random path words, then the channel's id (bit-reversed, as Nexmark does). */
    private String url(int channel) {
        StringBuilder url = new StringBuilder("https://www.nexmark.com/");
        for (int word = 0; word < 3; word++) {
            for (int letter = 0; letter < 5; letter++) {
                url.append((char) ('a' + bounded(poolRandom(channel * 16L + word * 5 + letter), 26)));
            }
            url.append('/');
        }
        return url.append("item.htm?query=1&channel_id=").append(Integer.reverse(channel) >>> 1).toString();
    }

    public long seed() {
        return seed;
    }

    /**
     * Writes rows {@code [from, from + n)} into rows {@code [0, n)} of {@code batch} and sets its row
     * count to {@code n}. The batch must have the layout {@code ArrowLayout.schema(BID_TYPE)}; its vectors
     * grow as needed and are reused as they are (fill a batch again to overwrite it).
     */
    public void fill(VectorSchemaRoot batch, long from, int n) {
        ArrowLayout.check(BID_TYPE, batch);
        BigIntVector auction = (BigIntVector) batch.getVector(0);
        BigIntVector bidder = (BigIntVector) batch.getVector(1);
        BigIntVector price = (BigIntVector) batch.getVector(2);
        VarCharVector channel = (VarCharVector) batch.getVector(3);
        VarCharVector url = (VarCharVector) batch.getVector(4);
        TimeStampMilliVector dateTime = (TimeStampMilliVector) batch.getVector(5);
        VarCharVector extra = (VarCharVector) batch.getVector(6);
        for (int row = 0; row < n; row++) {
            long i = from + row;
            auction.setSafe(row, auction(i));
            bidder.setSafe(row, bidder(i));
            price.setSafe(row, price(i));
            int c = channelIndex(i);
            channel.setSafe(row, channels[c], 0, channels[c].length);
            url.setSafe(row, urls[c], 0, urls[c].length);
            dateTime.setSafe(row, dateTime(i));
            extra.setSafe(row, filler, extraOffset(i), extraLength(i));
        }
        batch.setRowCount(n);
    }

    /** Row {@code i} as Flink's {@link GenericRowData}; the strings share the generator's byte pools. */
    public GenericRowData row(long i) {
        int c = channelIndex(i);
        return GenericRowData.of(
                auction(i),
                bidder(i),
                price(i),
                StringData.fromBytes(channels[c]),
                StringData.fromBytes(urls[c]),
                TimestampData.fromEpochMillis(dateTime(i)),
                StringData.fromBytes(filler, extraOffset(i), extraLength(i)));
    }

    long auction(long i) {
        long lastAuction = i / BIDS_PER_EPOCH * AUCTIONS_PER_EPOCH + AUCTIONS_PER_EPOCH - 1;
        long r = random(i, 0);
        if (bounded(r, HOT_RATIO) > 0) {
            return FIRST_ID + lastAuction / HOT_RATIO * HOT_RATIO;
        }
        return FIRST_ID + lastAuction - bounded(r << 31, (int) Math.min(lastAuction + 1, COLD_AUCTION_WINDOW));
    }

    long bidder(long i) {
        long lastPerson = i / BIDS_PER_EPOCH;
        long r = random(i, 1);
        if (bounded(r, HOT_RATIO) > 0) {
            return FIRST_ID + lastPerson / HOT_RATIO * HOT_RATIO + 1;
        }
        return FIRST_ID + lastPerson - bounded(r << 31, (int) Math.min(lastPerson + 1, COLD_BIDDER_WINDOW));
    }

    /** Cents, log-uniform in [100, 100_000_000] as in Nexmark's price generator. */
    long price(long i) {
        return NexmarkGenerator.priceCents((random(i, 2) >>> 11) * 0x1.0p-53);
    }

    int channelIndex(long i) {
        long r = random(i, 3);
        if (bounded(r, HOT_RATIO) > 0) {
            return bounded(r << 31, HOT_CHANNELS.length);
        }
        return HOT_CHANNELS.length + bounded(r << 31, COLD_CHANNELS);
    }

    long dateTime(long i) {
        return BASE_EPOCH_MILLIS + i;
    }

    int extraLength(long i) {
        return EXTRA_MIN + bounded(random(i, 4), EXTRA_SPAN);
    }

    int extraOffset(long i) {
        return bounded(random(i, 5), FILLER_BYTES - EXTRA_MIN - EXTRA_SPAN);
    }

    /** Independent 64 random bits for (row, stream); a row has at most 8 streams. */
    private long random(long row, int stream) {
        return mix(seed + (row * 8 + stream + 1) * GOLDEN);
    }

    /** Random bits for building the string pools, in a sequence apart from the rows'. */
    private long poolRandom(long key) {
        return mix(~seed + (key + 1) * GOLDEN);
    }

    /** SplitMix64's finalizer: a strong 64-bit mix of a Weyl-sequence value. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A value in {@code [0, bound)} from the top 31 of the given bits. */
    private static int bounded(long bits, int bound) {
        return (int) (((bits >>> 33) * bound) >>> 31);
    }
}
