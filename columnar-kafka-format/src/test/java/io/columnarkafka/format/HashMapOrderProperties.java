package io.columnarkafka.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.flink.table.data.StringData;
import org.apache.flink.util.CollectionUtil;

/**
 * {@link HashMapOrder} against real {@code java.util.HashMap}s of Flink's {@code StringData}, filled one put at a time
 * as Flink's converters fill them: the entries in the map's iteration order, a repeated key at its first position
 * with its last value. Keys come from a small pool, so maps repeat keys, and the pool holds keys in one bucket of the
 * default table ({@code k1}, {@code k2}) and pairs of distinct keys of equal hash ({@code cd6l}/{@code c3g1f},
 * {@code cyxt}/{@code c59ca}), which HashMap keeps in insertion order; sizes reach past 12 keys (a resize) and two
 * keys ({@code HashMapOrder}'s pair, no sort).
 */
class HashMapOrderProperties {
    private static final List<String> POOL = List.of("k0", "k1", "k2", "cd6l", "c3g1f", "cyxt", "c59ca", "", "a",
            "b", "key", "\u00e9t\u00e9", "\u65e5\u672c\u8a9e", "a-key-longer-than-a-word", "x1", "x2", "x3", "x4",
            "x5", "x6", "x7", "x8", "x9");
    private static final AtomicLong PAIRS_REORDERED = new AtomicLong();
    private static final AtomicLong PAIRS_REPEATED = new AtomicLong();
    private static final AtomicLong EQUAL_HASHES = new AtomicLong();

    @Property(tries = 2000)
    void growingIsANewHashMapsOrder(@ForAll("keyLists") List<String> keys) {
        check(keys, new HashMap<>(), (order, k) -> order.growing(k, 1, 1 + keys.size()));
    }

    @Property(tries = 1000)
    void withInitialCapacityIsThatHashMapsOrder(@ForAll("keyLists") List<String> keys,
            @ForAll @IntRange(min = 1, max = 40) int initialCapacity) {
        check(keys, new HashMap<>(initialCapacity),
                (order, k) -> order.withInitialCapacity(k, 1, 1 + keys.size(), initialCapacity));
    }

    @Property(tries = 1000)
    void presizedIsFlinksPresizedHashMapsOrder(@ForAll("keyLists") List<String> keys) {
        check(keys, CollectionUtil.newHashMapWithExpectedSize(keys.size()),
                (order, k) -> order.presized(k, 1, 1 + keys.size()));
    }

    @AfterContainer
    static void comparedEnough() {
        // Of 4,000 lists about a fifth hold two keys: each shape below comes up hundreds of times.
        assertThat(PAIRS_REORDERED.get()).as("two keys whose order HashMap turns round").isGreaterThan(50);
        assertThat(PAIRS_REPEATED.get()).as("two keys, the same twice").isGreaterThan(10);
        assertThat(EQUAL_HASHES.get()).as("lists holding two distinct keys of equal hash").isGreaterThan(50);
    }

    @Provide
    Arbitrary<List<String>> keyLists() {
        Arbitrary<String> key = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.of(POOL)),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(12)));
        // a pair of equal hashes, with another key or not, in any order
        Arbitrary<List<String>> equalHashes = Arbitraries.of(List.of("cd6l", "c3g1f"), List.of("cyxt", "c59ca"))
                .flatMap(pair -> Arbitraries.of(POOL).map(other -> List.of(pair.get(0), pair.get(1), other)))
                .flatMap(three -> Arbitraries.shuffle(three))
                .flatMap(three -> Arbitraries.of(three, three.subList(0, 2)));
        return Arbitraries.frequencyOf(
                Tuple.of(4, key.list().ofSize(2)),
                Tuple.of(3, key.list().ofSize(3)),
                Tuple.of(1, equalHashes),
                Tuple.of(3, key.list().ofMaxSize(40)));
    }

    /** Entry indexes from 0; the keys sit from entry 1 on, so that the order's entries are offset as in a vector. */
    private static void check(List<String> keys, Map<StringData, int[]> flink, BiPredicate<HashMapOrder, HashMapOrder.Keys> ordering) {
        List<byte[]> bytes = new ArrayList<>();
        bytes.add(new byte[0]); // entry 0, before the map
        for (String k : keys) {
            bytes.add(k.getBytes(StandardCharsets.UTF_8));
        }
        for (int e = 0; e < keys.size(); e++) {
            int[] at = flink.get(StringData.fromString(keys.get(e)));
            if (at == null) {
                flink.put(StringData.fromString(keys.get(e)), new int[] {e, e});
            } else {
                at[1] = e;
            }
        }
        HashMapOrder order = new HashMapOrder();
        HashMapOrder.Keys hashed = new HashMapOrder.Keys() {
            @Override
            public long hash(int entry) {
                return StringDataHash.of(bytes.get(entry), 0, bytes.get(entry).length) & 0xFFFFFFFFL;
            }

            @Override
            public boolean same(int a, int b) {
                return Arrays.equals(bytes.get(a), bytes.get(b));
            }
        };
        if (!ordering.test(order, hashed)) {
            Statistics.label("order").collect("needs a real HashMap");
            return;
        }
        List<String> expected = new ArrayList<>();
        for (int[] at : flink.values()) {
            expected.add(at[0] + "->" + at[1]);
        }
        List<String> actual = new ArrayList<>();
        for (int j = 0; j < order.size; j++) {
            actual.add((order.keyEntry[j] - 1) + "->" + (order.valueEntry[j] - 1));
        }
        assertThat(actual).as("entries (key's index -> value's index) of %s", keys).isEqualTo(expected);
        Statistics.label("order").collect(expected.equals(inputOrder(keys.size())) ? "input order" : "reordered");
        if (keys.size() == 2) {
            if (flink.size() == 1) {
                PAIRS_REPEATED.incrementAndGet();
            } else if (!expected.equals(inputOrder(2))) {
                PAIRS_REORDERED.incrementAndGet();
            }
        }
        if (keys.contains("cd6l") && keys.contains("c3g1f") || keys.contains("cyxt") && keys.contains("c59ca")) {
            EQUAL_HASHES.incrementAndGet();
        }
    }

    private static List<String> inputOrder(int n) {
        List<String> order = new ArrayList<>();
        for (int e = 0; e < n; e++) {
            order.add(e + "->" + e);
        }
        return order;
    }
}
