package io.columnarkafka.flink.table;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;

/**
 * The options {@code kafka-columnar} and {@code upsert-kafka-columnar} add to Flink's Kafka options,
 * all under {@code columnar.}. They shape only the batching in front of the encoders; the bytes written
 * do not depend on them.
 */
public final class ColumnarOptions {
    public static final String PREFIX = "columnar.";

    public static final ConfigOption<Integer> BATCH_SIZE = ConfigOptions.key("columnar.batch-size")
            .intType()
            .defaultValue(1024)
            .withDescription("Rows per Arrow batch; a full batch is encoded and sent at once.");

    public static final ConfigOption<Duration> MAX_LATENCY = ConfigOptions.key("columnar.max-latency")
            .durationType()
            .defaultValue(Duration.ofMillis(200))
            .withDescription("Longest time a row waits in a partly filled batch before it is sent."
                    + " Batches are also sent at every checkpoint barrier and at the end of input.");

    private static final Set<String> KEYS = Set.of(BATCH_SIZE.key(), MAX_LATENCY.key());

    private ColumnarOptions() {}

    /** The validated batching settings of a table's options. */
    public record Settings(int batchSize, long maxLatencyMillis) implements java.io.Serializable {}

    /** The table options without the {@code columnar.} ones, as Flink's Kafka factories expect them. */
    static Map<String, String> withoutColumnar(Map<String, String> tableOptions) {
        Map<String, String> rest = new HashMap<>(tableOptions);
        rest.keySet().removeIf(k -> k.startsWith(PREFIX));
        return rest;
    }

    /**
     * Reads and validates the {@code columnar.} options.
     *
     * @throws ValidationException for an unknown {@code columnar.} key or an invalid value
     */
    static Settings read(String identifier, Map<String, String> tableOptions) {
        Configuration config = new Configuration();
        for (Map.Entry<String, String> e : tableOptions.entrySet()) {
            if (e.getKey().startsWith(PREFIX)) {
                if (!KEYS.contains(e.getKey())) {
                    throw new ValidationException("Unsupported option '" + e.getKey() + "' for '" + identifier
                            + "'. Supported columnar options: " + KEYS);
                }
                config.setString(e.getKey(), e.getValue());
            }
        }
        int batchSize;
        Duration latency;
        try {
            batchSize = config.get(BATCH_SIZE);
            latency = config.get(MAX_LATENCY);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Invalid columnar option for '" + identifier + "': " + e.getMessage(), e);
        }
        if (batchSize <= 0) {
            throw new ValidationException("'" + BATCH_SIZE.key() + "' must be positive, got " + batchSize);
        }
        if (latency.isNegative() || latency.isZero()) {
            throw new ValidationException("'" + MAX_LATENCY.key() + "' must be positive, got " + latency);
        }
        return new Settings(batchSize, latency.toMillis());
    }
}
