package io.columnarkafka.bench;

import io.columnarkafka.planner.PlannerOptions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How the same-run A/B benchmarks ({@code --variants} of {@code bin/bench-nexmark} and {@code bin/bench-cdc}) spell a
 * variant: {@code stock}, {@code columnar} (the default columnar configuration), the A/A control {@value
 * AaControl#CONTROL_ID}, or an extra columnar variant {@code columnar:ITEM[+ITEM...]}. An item is a columnar planner
 * option {@code KEY=VALUE} (a {@link PlannerOptions#PATH_CHOICES path choice}, its key relative to {@link
 * PlannerOptions#PREFIX}), checked against the planner's own option so that a typo fails the run before its first
 * cell rather than measuring the default under another name; a benchmark may read other items besides.
 */
public final class VariantSpelling {
    /** Between the items of a variant's id. */
    public static final String OPTION_SEPARATOR = "+";
    /** What the items of an extra variant follow. */
    private static final String WITH_ITEMS = "columnar:";
    /** The forms of {@link #plannerOptions}'s ids, as its messages name them. */
    private static final String PLANNER_OPTION_FORMS =
            "KEY=VALUE[" + OPTION_SEPARATOR + "KEY=VALUE...], each a planner option";

    private VariantSpelling() {}

    /**
     * The items of {@code columnar:ITEM[+ITEM...]}; throws {@link IllegalArgumentException} on any other form, the
     * message naming the forms a benchmark reads ({@code forms}: what may follow {@code columnar:}).
     */
    public static List<String> items(String id, String forms) {
        if (!id.startsWith(WITH_ITEMS) || id.length() == WITH_ITEMS.length()) {
            throw new IllegalArgumentException("variant '" + id + "' is not stock, columnar, " + AaControl.CONTROL_ID
                    + " (the A/A control) or " + WITH_ITEMS + forms);
        }
        return Arrays.asList(id.substring(WITH_ITEMS.length()).split("\\" + OPTION_SEPARATOR, -1));
    }

    /**
     * The key and value of the item {@code FLAG KEY=VALUE} ({@code flag} empty for a planner option); throws {@link
     * IllegalArgumentException} naming the item when the key or the value is empty.
     */
    public static Map.Entry<String, String> keyValue(String id, String item, String flag) {
        String option = item.substring(flag.length());
        int eq = option.indexOf('=');
        if (eq <= 0 || eq == option.length() - 1) {
            throw new IllegalArgumentException("variant '" + id + "': '" + item + "' is not " + flag + "KEY=VALUE");
        }
        return Map.entry(option.substring(0, eq), option.substring(eq + 1));
    }

    /** A planner option's key and value, checked to be a path choice that takes the value. */
    public static void checkPlannerOption(Map.Entry<String, String> option) {
        PlannerOptions.pathChoice(option.getKey(), option.getValue());
    }

    /** Puts {@code option} into {@code into}; throws {@link IllegalArgumentException} if the variant set it already. */
    public static void putOnce(Map<String, String> into, String id, String flag, Map.Entry<String, String> option) {
        if (into.put(option.getKey(), option.getValue()) != null) {
            throw new IllegalArgumentException("variant '" + id + "' sets " + flag + option.getKey() + " twice");
        }
    }

    /**
     * The planner options of {@code columnar:KEY=VALUE[+KEY=VALUE...]}, every item a planner option, sorted by key;
     * throws {@link IllegalArgumentException} on any other form, an unknown option, a value it does not take or a key
     * set twice.
     */
    public static SortedMap<String, String> plannerOptions(String id) {
        SortedMap<String, String> options = new TreeMap<>();
        for (String item : items(id, PLANNER_OPTION_FORMS)) {
            Map.Entry<String, String> option = keyValue(id, item, "");
            checkPlannerOption(option);
            putOnce(options, id, "", option);
        }
        return options;
    }

    /** The id of a columnar variant with {@code items} ({@code KEY=VALUE} each): {@code columnar} for none. */
    public static String id(List<String> items) {
        return items.isEmpty() ? "columnar" : WITH_ITEMS + String.join(OPTION_SEPARATOR, items);
    }

    /** {@code KEY=VALUE} for each option, in the map's order. */
    public static List<String> items(Map<String, String> options) {
        return options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }

    /** The planner options with their full keys, as a cell's session sets them. */
    public static Map<String, String> sessionOptions(Map<String, String> plannerOptions) {
        Map<String, String> session = new LinkedHashMap<>();
        plannerOptions.forEach((key, value) -> session.put(PlannerOptions.PREFIX + key, value));
        return session;
    }

    /** The path choices' keys relative to {@link PlannerOptions#PREFIX}, for a usage text. */
    public static String pathChoices() {
        return PlannerOptions.PATH_CHOICES.stream().map(o -> o.key().substring(PlannerOptions.PREFIX.length()))
                .collect(Collectors.joining(", "));
    }

    /**
     * The variants of {@code --variants} ({@code value}, comma-separated, each read by {@code parse}) in their natural
     * order; throws {@link IllegalArgumentException} on a variant named twice, or a list without {@code stock} or
     * {@code columnar} (every output is compared with stock's, every extra variant's ratio also with columnar's).
     */
    public static <V extends Comparable<V>> List<V> list(String value, Function<String, V> parse, V stock,
                                                         V columnar) {
        List<V> parsed = Arrays.stream(value.split(",")).map(String::trim).map(parse).toList();
        List<V> sorted = parsed.stream().distinct().sorted().toList();
        if (sorted.size() != parsed.size()) {
            throw new IllegalArgumentException("--variants names a variant twice: " + value);
        }
        if (!sorted.contains(stock) || !sorted.contains(columnar)) {
            throw new IllegalArgumentException("--variants needs stock and columnar (every output is compared with"
                    + " stock's, every extra variant measured against both): " + value);
        }
        return sorted;
    }
}
