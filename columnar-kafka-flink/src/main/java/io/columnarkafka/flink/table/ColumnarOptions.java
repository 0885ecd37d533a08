package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.SendWindow;
import io.columnarkafka.flink.source.ColumnarKafkaSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.util.TimeUtils;

/**
 * The options {@code kafka-columnar} and {@code upsert-kafka-columnar} add to Flink's Kafka options,
 * all under {@code columnar.}. They shape only the batching: in front of the encoders (a sink's), after the
 * Kafka fetch ({@code columnar.scan.}, a scan's), and the pace of a sink's sends ({@code columnar.sink.}); the
 * bytes written and the rows read do not depend on them.
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

    public static final ConfigOption<Duration> SINK_MAX_QUEUE_DELAY = ConfigOptions.key("columnar.sink.max-queue-delay")
            .durationType()
            .defaultValue(SendWindow.DEFAULT_MAX_QUEUE_DELAY)
            .withDescription("Longest time records may queue in Kafka's producer beyond the link's own round trip"
                    + " when a checkpoint barrier arrives: an exactly-once or at-least-once checkpoint flushes that"
                    + " backlog. The sink holds records back as the next barrier nears (expected from the last"
                    + " barriers' gaps) until the producer has no more unacknowledged than the recent acknowledgement"
                    + " rate drains in a round trip plus this (plus one round trip more on a distant broker), and"
                    + " around the expected barrier no more than a round trip's worth; between barriers the"
                    + " producer's own buffer applies, and the rate the link carries is not capped. 0 for"
                    + " Kafka's own buffering alone (up to properties.buffer.memory). No effect with"
                    + " sink.delivery-guarantee 'none' or without checkpoints.");

    public static final ConfigOption<Integer> SCAN_MAX_BATCH_ROWS = ConfigOptions.key("columnar.scan.max-batch-rows")
            .intType()
            .defaultValue(ColumnarKafkaSource.DEFAULT_MAX_BATCH_ROWS)
            .withDescription("Most rows of one Arrow batch a scan decodes. A batch never spans two Kafka fetches,"
                    + " so properties.max.poll.records (Kafka's default 500) bounds it too. The source task"
                    + " decodes and emits one batch per step, and a checkpoint barrier waits for that step.");

    public static final ConfigOption<Duration> SCAN_MAX_BATCH_TIME = ConfigOptions.key("columnar.scan.max-batch-time")
            .durationType()
            .defaultValue(ColumnarKafkaSource.DEFAULT_MAX_BATCH_TIME)
            .withDescription("Target time of one step of a scan's source task: decoding one Arrow batch and running"
                    + " the chained operators on it. A checkpoint barrier waits for the step under way, so each reader"
                    + " cuts a batch to the records its recent steps took that long for (at least 16, at most"
                    + " columnar.scan.max-batch-rows). 0 (the default) for none.");

    public static final ConfigOption<MemorySize> SCAN_MAX_BATCH_BYTES = ConfigOptions.key("columnar.scan.max-batch-bytes")
            .memoryType()
            .defaultValue(new MemorySize(ColumnarKafkaSource.DEFAULT_MAX_BATCH_BYTES))
            .withDescription("Most key and value bytes of the records of one Arrow batch a scan decodes; a single"
                    + " larger record still makes a batch of its own.");

    private static final Set<String> KEYS =
            Set.of(BATCH_SIZE.key(), MAX_LATENCY.key(), SINK_MAX_QUEUE_DELAY.key(), SCAN_MAX_BATCH_ROWS.key(), SCAN_MAX_BATCH_TIME.key(),
                    SCAN_MAX_BATCH_BYTES.key());

    private ColumnarOptions() {}

    /**
     * The validated sink settings of a table's options: its batching and its send window's queue delay (0 for
     * none).
     */
    public record Settings(int batchSize, long maxLatencyMillis, long maxQueueDelayNanos)
            implements java.io.Serializable {}

    /** The validated caps on a scan's batches ({@code columnar.scan.}). */
    public record ScanSettings(int maxBatchRows, Duration maxBatchTime, long maxBatchBytes)
            implements java.io.Serializable {
        /** The caps of a table that sets none. */
        public static final ScanSettings DEFAULTS = new ScanSettings(SCAN_MAX_BATCH_ROWS.defaultValue(),
                SCAN_MAX_BATCH_TIME.defaultValue(), SCAN_MAX_BATCH_BYTES.defaultValue().getBytes());

        /**
         * What the scan's decision adds when a cap is not the default, e.g. {@code batches of at most 256 rows};
         * empty with the defaults (the decisions EXPLAIN shows then stay as they were).
         */
        String describe() {
            if (equals(DEFAULTS)) {
                return "";
            }
            String caps = "batches of at most " + maxBatchRows + " rows, " + new MemorySize(maxBatchBytes);
            return maxBatchTime.isZero() ? caps : caps + ", " + TimeUtils.formatWithHighestUnit(maxBatchTime) + " a step";
        }
    }

    /** The table options without the {@code columnar.} ones, as Flink's Kafka factories expect them. */
    static Map<String, String> withoutColumnar(Map<String, String> tableOptions) {
        Map<String, String> rest = new HashMap<>(tableOptions);
        rest.keySet().removeIf(k -> k.startsWith(PREFIX));
        return rest;
    }

    /**
     * Reads and validates the sink's {@code columnar.} options (every {@code columnar.} key is checked).
     *
     * @throws ValidationException for an unknown {@code columnar.} key or an invalid value
     */
    static Settings read(String identifier, Map<String, String> tableOptions) {
        Configuration config = columnarConfig(identifier, tableOptions);
        int batchSize = get(identifier, config, BATCH_SIZE);
        Duration latency = get(identifier, config, MAX_LATENCY);
        requirePositive(batchSize > 0, BATCH_SIZE, batchSize);
        requirePositive(!latency.isNegative() && !latency.isZero(), MAX_LATENCY, latency);
        Duration queueDelay = get(identifier, config, SINK_MAX_QUEUE_DELAY); // Flink's parser rejects a negative one
        return new Settings(batchSize, latency.toMillis(), queueDelay.toNanos());
    }

    /**
     * Reads and validates the scan's {@code columnar.scan.} options (every {@code columnar.} key is checked).
     *
     * @throws ValidationException for an unknown {@code columnar.} key or an invalid value
     */
    static ScanSettings readScan(String identifier, Map<String, String> tableOptions) {
        Configuration config = columnarConfig(identifier, tableOptions);
        int rows = get(identifier, config, SCAN_MAX_BATCH_ROWS);
        Duration time = get(identifier, config, SCAN_MAX_BATCH_TIME); // Flink's parser rejects a negative one
        MemorySize bytes = get(identifier, config, SCAN_MAX_BATCH_BYTES);
        requirePositive(rows > 0, SCAN_MAX_BATCH_ROWS, rows);
        requirePositive(bytes.getBytes() > 0, SCAN_MAX_BATCH_BYTES, bytes);
        return new ScanSettings(rows, time, bytes.getBytes());
    }

    /** The {@code columnar.} options of a table. */
    private static Configuration columnarConfig(String identifier, Map<String, String> tableOptions) {
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
        return config;
    }

    private static void requirePositive(boolean positive, ConfigOption<?> option, Object value) {
        if (!positive) {
            throw new ValidationException("'" + option.key() + "' must be positive, got " + value);
        }
    }

    private static <T> T get(String identifier, Configuration config, ConfigOption<T> option) {
        try {
            return config.get(option);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Invalid columnar option for '" + identifier + "': " + e.getMessage(), e);
        }
    }
}
