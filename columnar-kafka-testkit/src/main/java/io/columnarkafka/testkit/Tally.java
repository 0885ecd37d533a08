package io.columnarkafka.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Counts how often each identity is seen and compares that with how often it was expected (multiset semantics).
 * Not public API.
 */
abstract class Tally {

    /** Records one value read from the topic. */
    abstract void seen(byte[] value);

    /** The comparison, with at most {@code maxDetails} entries in each detail collection. */
    abstract Comparison finish(int maxDetails);

    /** Result of a comparison; counts are exact, the maps and list are capped samples. */
    record Comparison(long expectedCount, long duplicateCount, Map<Object, Long> duplicates, long missingCount,
                      List<Object> missing, long unexpectedCount, Map<Object, Long> unexpected) {
    }

    private static final class Counts {
        int expected;
        int seen;
    }

    /**
     * Identities in a hash map. With {@code eachSeenOnce}, there is no expected collection: every identity is
     * expected exactly once when first seen, so only duplicates can be reported.
     */
    static final class HashTally extends Tally {
        private final Function<byte[], ?> identity;
        private final Map<Object, Counts> counts = new LinkedHashMap<>();
        private final boolean eachSeenOnce;
        private long expectedCount;

        HashTally(Iterable<?> expectedIds, Function<byte[], ?> identity) {
            this.identity = Objects.requireNonNull(identity, "identity");
            this.eachSeenOnce = false;
            for (Object id : expectedIds) {
                counts.computeIfAbsent(id, k -> new Counts()).expected++;
                expectedCount++;
            }
        }

        HashTally(Function<byte[], ?> identity) {
            this.identity = Objects.requireNonNull(identity, "identity");
            this.eachSeenOnce = true;
        }

        @Override
        void seen(byte[] value) {
            Counts c = counts.computeIfAbsent(identity.apply(value), k -> new Counts());
            if (eachSeenOnce && c.expected == 0) {
                c.expected = 1;
                expectedCount++;
            }
            c.seen++;
        }

        @Override
        Comparison finish(int maxDetails) {
            long duplicateCount = 0;
            long missingCount = 0;
            long unexpectedCount = 0;
            Map<Object, Long> duplicates = new LinkedHashMap<>();
            List<Object> missing = new ArrayList<>();
            Map<Object, Long> unexpected = new LinkedHashMap<>();
            for (Map.Entry<Object, Counts> e : counts.entrySet()) {
                Counts c = e.getValue();
                if (c.expected == 0) {
                    unexpectedCount += c.seen;
                    if (unexpected.size() < maxDetails) {
                        unexpected.put(e.getKey(), (long) c.seen);
                    }
                } else if (c.seen > c.expected) {
                    duplicateCount += c.seen - c.expected;
                    if (duplicates.size() < maxDetails) {
                        duplicates.put(e.getKey(), (long) c.seen);
                    }
                } else if (c.seen < c.expected) {
                    missingCount += c.expected - c.seen;
                    if (missing.size() < maxDetails) {
                        missing.add(e.getKey());
                    }
                }
            }
            return new Comparison(expectedCount, duplicateCount, Collections.unmodifiableMap(duplicates),
                    missingCount, Collections.unmodifiableList(missing), unexpectedCount,
                    Collections.unmodifiableMap(unexpected));
        }
    }

    /**
     * Expected ids are the contiguous range {@code [first, first + count)}, each expected once: counts live in an
     * {@code int[count]} (4 bytes per id, no boxing), so millions of ids cost a few MB. Ids outside the range are
     * unexpected and kept in a map.
     */
    static final class RangeTally extends Tally {
        private final long first;
        private final int[] seen;
        private final ToLongFunction<byte[]> idOf;
        private final Map<Object, Long> outside = new LinkedHashMap<>();

        RangeTally(long first, int count, ToLongFunction<byte[]> idOf) {
            if (count < 0) {
                throw new IllegalArgumentException("count must be >= 0: " + count);
            }
            if (count > 0 && first + (count - 1) < first) {
                throw new IllegalArgumentException("id range overflows long: " + first + " + " + count);
            }
            this.first = first;
            this.seen = new int[count];
            this.idOf = Objects.requireNonNull(idOf, "idOf");
        }

        @Override
        void seen(byte[] value) {
            long id = idOf.applyAsLong(value);
            long index = id - first;
            if (id >= first && index >= 0 && index < seen.length) {
                seen[(int) index]++;
            } else {
                outside.merge(id, 1L, Long::sum);
            }
        }

        @Override
        Comparison finish(int maxDetails) {
            long duplicateCount = 0;
            long missingCount = 0;
            long unexpectedCount = 0;
            Map<Object, Long> duplicates = new LinkedHashMap<>();
            List<Object> missing = new ArrayList<>();
            Map<Object, Long> unexpected = new LinkedHashMap<>();
            for (int i = 0; i < seen.length; i++) {
                int s = seen[i];
                if (s == 0) {
                    missingCount++;
                    if (missing.size() < maxDetails) {
                        missing.add(first + i);
                    }
                } else if (s > 1) {
                    duplicateCount += s - 1;
                    if (duplicates.size() < maxDetails) {
                        duplicates.put(first + i, (long) s);
                    }
                }
            }
            for (Map.Entry<Object, Long> e : outside.entrySet()) {
                unexpectedCount += e.getValue();
                if (unexpected.size() < maxDetails) {
                    unexpected.put(e.getKey(), e.getValue());
                }
            }
            return new Comparison(seen.length, duplicateCount, Collections.unmodifiableMap(duplicates),
                    missingCount, Collections.unmodifiableList(missing), unexpectedCount,
                    Collections.unmodifiableMap(unexpected));
        }
    }
}
