package io.columnarkafka.bench;

import java.util.Map;
import java.util.stream.Collectors;

/** A table's connector options as the body of a SQL {@code WITH (...)}. */
public final class SqlOptions {
    private SqlOptions() {}

    /** {@code 'key' = 'value', ...}, sorted by key, quotes in values doubled. */
    public static String of(Map<String, String> options) {
        return options.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue().replace("'", "''") + "'")
                .collect(Collectors.joining(", "));
    }
}
