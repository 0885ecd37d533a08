package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The input's bids per bidder, from the generator (the topic holds exactly its first {@code events} events):
 * what q12's output is checked against. Its processing-time windows count the bids that arrive within wall-clock
 * intervals, and Flink fires no window still open when a bounded input ends (the window operator has no
 * end-of-input step; a processing-time timer not yet due never fires), so which bids are counted differs run
 * to run, stock against stock too. What holds in every bounded run: each bidder's bids summed over its windows are
 * at most its bids in the input ({@link #violation}). A fixed-rate run waits for the last window to fire before it
 * stops the job, so there every bid is counted once: each bidder's bids summed over its windows equal its bids in
 * the input ({@link #mismatch}).
 */
final class InputBids {
    private final Map<Long, Long> perBidder;
    private final long total;

    private InputBids(Map<Long, Long> perBidder, long total) {
        this.perBidder = perBidder;
        this.total = total;
    }

    static InputBids of(NexmarkGenerator generator, long events) {
        Map<Long, Long> perBidder = new HashMap<>();
        long total = 0;
        for (long i = 0; i < events; i++) {
            var event = generator.event(i);
            if (event.getInt(0) == NexmarkGenerator.BID) {
                perBidder.merge(event.getRow(3, 7).getLong(1), 1L, Long::sum);
                total++;
            }
        }
        return new InputBids(perBidder, total);
    }

    static InputBids of(Map<Long, Long> perBidder) {
        return new InputBids(Map.copyOf(perBidder), perBidder.values().stream().mapToLong(Long::longValue).sum());
    }

    /**
     * {@code null} if every entry ({@code bidder<TAB>bids}, {@link OutputDigest}'s q12 entries) is a bidder of
     * the input counted at most as often as it bid; otherwise the first entry that is not, and why.
     */
    String violation(List<String> entries) {
        for (String entry : entries) {
            String[] parts = entry.split("\t");
            long bidder = Long.parseLong(parts[0]);
            long counted = Long.parseLong(parts[1]);
            long bids = perBidder.getOrDefault(bidder, 0L);
            if (counted > bids) {
                return String.format(Locale.ROOT, "bidder %d counted %d times, %d bids in the input", bidder,
                        counted, bids);
            }
        }
        return null;
    }

    /**
     * {@code null} if the entries count every bidder of the input exactly as often as it bid, and no other
     * bidder; otherwise how many bidders differ and the first of them (by id), with both counts.
     */
    String mismatch(List<String> entries) {
        Map<Long, Long> counted = new java.util.TreeMap<>();
        for (String entry : entries) {
            String[] parts = entry.split("\t");
            counted.merge(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long::sum);
        }
        java.util.SortedSet<Long> bidders = new java.util.TreeSet<>(perBidder.keySet());
        bidders.addAll(counted.keySet());
        long differing = 0;
        String first = null;
        for (long bidder : bidders) {
            long n = counted.getOrDefault(bidder, 0L);
            long bids = perBidder.getOrDefault(bidder, 0L);
            if (n != bids) {
                differing++;
                if (first == null) {
                    first = String.format(Locale.ROOT, "bidder %d counted %d times, %d bids in the input", bidder, n,
                            bids);
                }
            }
        }
        return first == null ? null : String.format(Locale.ROOT, "%,d bidder(s) not counted exactly once per bid"
                + " (%s); %s", differing, first, share(entries));
    }

    /** How many of the input's bids these entries count, for the verdict. */
    String share(List<String> entries) {
        long counted = entries.stream().mapToLong(e -> Long.parseLong(e.substring(e.indexOf('\t') + 1))).sum();
        return String.format(Locale.ROOT, "%,d of the input's %,d bids in closed windows", counted, total);
    }
}
