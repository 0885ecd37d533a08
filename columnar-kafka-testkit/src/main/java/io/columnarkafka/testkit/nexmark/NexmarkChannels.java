package io.columnarkafka.testkit.nexmark;

import java.util.SplittableRandom;

/**
 * The channels bids come through, as the suite's bid generator makes them: four named channels with
 * one fixed URL each, and 10,000 generated channels {@code channel-<n>} whose URL carries {@code
 * &channel_id=<|reverse(n)|>} in 9 of 10 cases (the query q21 extracts it). URLs are {@code
 * https://www.nexmark.com/<w>/<w>/<w>/item.htm?query=1} with three random words using {@code _} as separator.
 * Built once from the seed.
 */
final class NexmarkChannels {
    /** The named channels; half the bids go through one of them. */
    static final String[] NAMED = {"Google", "Facebook", "Baidu", "Apple"};
    static final int GENERATED = 10_000;
    /** 1 in this many bids goes through a generated channel. */
    private static final int NAMED_RATIO = 2;

    private final String[] namedUrls = new String[NAMED.length];
    private final String[] generatedNames = new String[GENERATED];
    private final String[] generatedUrls = new String[GENERATED];

    NexmarkChannels(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < NAMED.length; i++) {
            namedUrls[i] = baseUrl(random);
        }
        for (int i = 0; i < GENERATED; i++) {
            String url = baseUrl(random);
            if (random.nextInt(10) > 0) {
                url = url + "&channel_id=" + Math.abs(Integer.reverse(i));
            }
            generatedNames[i] = "channel-" + i;
            generatedUrls[i] = url;
        }
    }

    private static String baseUrl(SplittableRandom random) {
        return "https://www.nexmark.com/" + NexmarkStrings.word(random, 5, '_') + '/'
                + NexmarkStrings.word(random, 5, '_') + '/' + NexmarkStrings.word(random, 5, '_') + '/'
                + "item.htm?query=1";
    }

    /** A channel index: {@code 0..3} named, {@code 4..} generated ({@code 4 + n} is {@code channel-n}). */
    static int pick(SplittableRandom random) {
        if (random.nextInt(NAMED_RATIO) > 0) {
            return random.nextInt(NAMED.length);
        }
        return NAMED.length + random.nextInt(GENERATED);
    }

    String name(int channel) {
        return channel < NAMED.length ? NAMED[channel] : generatedNames[channel - NAMED.length];
    }

    String url(int channel) {
        return channel < NAMED.length ? namedUrls[channel] : generatedUrls[channel - NAMED.length];
    }
}
