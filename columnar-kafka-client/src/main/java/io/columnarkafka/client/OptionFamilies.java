package io.columnarkafka.client;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A configuration spelled as Flink's Kafka table options, sorted into its families: Kafka client properties
 * ({@code properties.<key>}), the value format's options ({@code value.<format>.<option>}), the key format's
 * ({@code key.<format>.<option>}) and the plain keys, and whole-number values checked against their bounds. The
 * sink's and the source's settings both read theirs so.
 *
 * @param valueOptions the value format's options, by Flink's keys without the prefix
 * @param keyOptions the key format's options, likewise
 */
record OptionFamilies(Map<String, String> valueOptions, Map<String, String> keyOptions) {
    private static final String PROPERTIES_PREFIX = "properties.";

    /**
     * Sorts {@code config}: each {@code properties.<key>} goes to {@code property} (key without the prefix), in
     * order; a key without a value, or one of no family and not among {@code plainKeys}, to {@code problem}.
     *
     * @param client what the properties configure, e.g. {@code producer}, for the unknown-key message
     */
    static OptionFamilies sort(Map<String, String> config, List<String> plainKeys, String client,
            BiConsumer<String, String> property, BiConsumer<String, String> problem) {
        Map<String, String> valueOptions = new HashMap<>();
        Map<String, String> keyOptions = new HashMap<>();
        String valuePrefix = config.get("value.format") == null ? null : "value." + config.get("value.format") + ".";
        String keyPrefix = config.get("key.format") == null ? null : "key." + config.get("key.format") + ".";
        for (Map.Entry<String, String> entry : config.entrySet()) {
            String key = entry.getKey();
            String value = entry.getValue();
            if (value == null) {
                problem.accept(key, "has no value");
            } else if (key.startsWith(PROPERTIES_PREFIX)) {
                property.accept(key.substring(PROPERTIES_PREFIX.length()), value);
            } else if (valuePrefix != null && key.startsWith(valuePrefix)) {
                valueOptions.put(key.substring(valuePrefix.length()), value);
            } else if (keyPrefix != null && key.startsWith(keyPrefix)) {
                keyOptions.put(key.substring(keyPrefix.length()), value);
            } else if (!plainKeys.contains(key)) {
                problem.accept(key, "unknown key; known: " + plainKeys + ", properties.<" + client
                        + " property>, value.<format>.<option>, key.<format>.<option>");
            }
        }
        return new OptionFamilies(valueOptions, keyOptions);
    }

    /**
     * The whole number under {@code key}, from {@code min} to {@code max}; {@code defaultValue} when absent, and
     * also, reported to {@code problem}, when it is not such a number.
     */
    static long number(Map<String, String> config, String key, long defaultValue, long min, long max,
            BiConsumer<String, String> problem) {
        String value = config.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem.accept(key, "must be a whole number from " + min + " to " + max + ", not '" + value + "'");
        return defaultValue;
    }
}
