package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random query shapes of the vectorised local group aggregate, each against Flink's own operator as {@link
 * VectorLocalGroupAggregateTest} compares them (the same scripts, flush by flush, byte for byte): over an insert-only
 * input or a changelog, zero to two grouping keys of BIGINT, INT and VARCHAR, one to five calls among the admitted
 * ones (COUNT(*), COUNT, SUM, AVG, MAX and MIN of INT, BIGINT, DECIMAL(12, 2) and DECIMAL(18, 6), MAX and MIN of
 * VARCHAR and, over an insert-only input, of TIMESTAMP(3), COUNT(DISTINCT) of INT, BIGINT and VARCHAR; over a
 * changelog Flink's retracting ones), a third of them with a FILTER, and bundles
 * of 23 to 50,000 rows. Seeded: a failure names its seed and query.
 */
class LocalGroupAggShapesTest {
    private static final int SHAPES = 40;
    private static final String[] KEYS = {"k", "i", "s"};
    private static final String[] SUMMED = {"i", "b", "d", "e"};
    private static final String[] COMPARED = {"i", "b", "s"};
    private static final String[] EXTREMES = {"i", "b", "s", "d", "e"};
    /** Over an insert-only input a TIMESTAMP(3) too (over a changelog Flink's retracting MAX keys whole timestamps). */
    private static final String[] INSERTED_EXTREMES = {"i", "b", "s", "d", "e", "t"};
    private static final String[] FILTERS = {"flag", "b > 0", "d < 0"};
    private static final int[] BUNDLES = {23, 50, 1000, 50_000};

    @Test
    void randomShapesEqualFlinksLocalAggregate() throws Exception {
        int changelogs = 0;
        int decimalCalls = 0;
        int filtered = 0;
        int retractingExtremes = 0;
        for (long seed = 1; seed <= SHAPES; seed++) {
            // mixed: java.util.Random's first draws of neighbouring seeds are alike
            Random random = new Random(new SplittableRandom(seed).nextLong());
            boolean changelog = random.nextBoolean();
            List<String> keys = new ArrayList<>();
            for (String key : KEYS) {
                if (keys.size() < 2 && random.nextInt(3) == 0) {
                    keys.add(key);
                }
            }
            Set<String> calls = new LinkedHashSet<>();
            List<String> columns = new ArrayList<>();
            keys.forEach(key -> columns.add(key + " " + type(key)));
            for (int n = 1 + random.nextInt(5); n > 0; n--) {
                String call = call(random, changelog, keys);
                if (random.nextInt(3) == 0) {
                    call += " FILTER (WHERE " + FILTERS[random.nextInt(FILTERS.length)] + ")";
                    filtered++;
                }
                if (calls.add(call)) {
                    columns.add("c" + calls.size() + " " + resultType(call));
                    decimalCalls += call.contains("(d)") || call.contains("(e)") ? 1 : 0;
                    retractingExtremes += changelog && call.startsWith("M") ? 1 : 0;
                }
            }
            String select = "SELECT " + String.join(", ", keys) + (keys.isEmpty() ? "" : ", ")
                    + String.join(", ", calls) + " FROM " + (changelog ? "changed" : "keyed")
                    + (keys.isEmpty() ? "" : " GROUP BY " + String.join(", ", keys));
            int bundle = BUNDLES[random.nextInt(BUNDLES.length)];
            try {
                VectorLocalGroupAggregateTest.assertSameOutput(String.join(", ", columns), select,
                        1 + random.nextInt(40), bundle, 40, 100, false);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("seed " + seed + ", bundles of " + bundle + ": " + select, e);
            }
            changelogs += changelog ? 1 : 0;
        }
        assertThat(changelogs).as("shapes over a changelog").isBetween(10, SHAPES - 10);
        assertThat(decimalCalls).as("DECIMAL sums and averages").isGreaterThan(15);
        assertThat(filtered).as("calls with a FILTER").isGreaterThan(15);
        assertThat(retractingExtremes).as("MAX and MIN over a changelog").isGreaterThan(10);
    }

    /**
     * A call the vectorised operator admits: no COUNT(DISTINCT) of a grouping key (every group's map would hold its
     * one value, which the comparison's map checks reject).
     */
    private static String call(Random random, boolean changelog, List<String> keys) {
        String[] extremes = changelog ? EXTREMES : INSERTED_EXTREMES;
        int pick = random.nextInt(7);
        return switch (pick) {
            case 0 -> "COUNT(*)";
            case 1 -> "COUNT(" + COMPARED[random.nextInt(COMPARED.length)] + ")";
            case 2 -> "SUM(" + SUMMED[random.nextInt(SUMMED.length)] + ")";
            case 3 -> "AVG(" + SUMMED[random.nextInt(SUMMED.length)] + ")";
            case 5 -> "MAX(" + extremes[random.nextInt(extremes.length)] + ")";
            case 6 -> "MIN(" + extremes[random.nextInt(extremes.length)] + ")";
            default -> {
                String column = COMPARED[random.nextInt(COMPARED.length)];
                yield keys.contains(column) ? "COUNT(*)" : "COUNT(DISTINCT " + column + ")";
            }
        };
    }

    private static String type(String column) {
        return switch (column) {
            case "k", "b" -> "BIGINT";
            case "i" -> "INT";
            case "s" -> "STRING";
            case "d" -> "DECIMAL(12, 2)";
            case "e" -> "DECIMAL(18, 6)";
            case "t" -> "TIMESTAMP(3)";
            default -> throw new IllegalArgumentException(column);
        };
    }

    /**
     * The SQL result type of a call (Flink's: a DECIMAL's SUM is DECIMAL(38, s), its AVG DECIMAL(38, max(s, 6)), its MAX
     * and MIN its own type).
     */
    private static String resultType(String call) {
        String column = call.substring(call.indexOf('(') + 1, call.indexOf(')')).replace("DISTINCT ", "");
        if (call.startsWith("COUNT")) {
            return "BIGINT";
        }
        if (call.startsWith("M")) {
            return type(column);
        }
        if (column.equals("d") || column.equals("e")) {
            return call.startsWith("SUM") && column.equals("d") ? "DECIMAL(38, 2)" : "DECIMAL(38, 6)";
        }
        return type(column);
    }
}
