package io.columnarkafka.bench.nexmark;

import java.util.Locale;
import java.util.Map;

/**
 * The Kafka client settings a run gives both variants' tables alike: the source table's {@code
 * properties.max.poll.records} and the result table's producer {@code properties.batch.size}, {@code
 * properties.linger.ms} and {@code properties.buffer.memory}. Unset, a table keeps Kafka's default (500 records;
 * 16384 bytes; 5 ms since Kafka 4.0; 33554432 bytes).
 * Beside them, the columnar source table's caps on a scan's batch ({@code columnar.scan.max-batch-rows} and {@code
 * columnar.scan.max-batch-time}), which only the columnar variant has.
 *
 * @param maxPollRecords records per fetch, and so the most rows of a columnar scan's batch; 0 for Kafka's default
 * @param producerBatchSize bytes per producer batch; -1 for Kafka's default
 * @param producerLingerMs ms the producer waits to fill a batch; -1 for Kafka's default
 * @param producerBufferMemory bytes the producer buffers unsent, and so the most an exactly-once sink's flush at a
 *     checkpoint has to drain; -1 for Kafka's default
 * @param scanBatchRows the columnar scan's {@code columnar.scan.max-batch-rows}; 0 for the connector's default
 * @param scanBatchTimeMs the columnar scan's {@code columnar.scan.max-batch-time} in ms, 0 for none; -1 for the
 *     connector's default
 */
record ClientSettings(int maxPollRecords, int producerBatchSize, int producerLingerMs, long producerBufferMemory,
        int scanBatchRows, int scanBatchTimeMs) {
    /** Kafka's and the connector's defaults everywhere. */
    static final ClientSettings DEFAULTS = new ClientSettings(0, -1, -1, -1, 0, -1);

    ClientSettings {
        if (maxPollRecords < 0) {
            throw new IllegalArgumentException("--max-poll-records is a positive number of records");
        }
        if (producerBatchSize < -1 || producerLingerMs < -1) {
            throw new IllegalArgumentException("--producer-batch-size and --producer-linger-ms are 0 or more");
        }
        if (producerBufferMemory == 0 || producerBufferMemory < -1) {
            throw new IllegalArgumentException("--producer-buffer-memory is a positive number of bytes");
        }
        if (scanBatchRows < 0) {
            throw new IllegalArgumentException("--scan-batch-rows is a positive number of rows");
        }
        if (scanBatchTimeMs < -1) {
            throw new IllegalArgumentException("--scan-batch-time is 0 (none) or more ms");
        }
    }

    /** The options of the source table of {@code connector} for these settings. */
    void addSourceOptions(String connector, Map<String, String> options) {
        if (maxPollRecords > 0) {
            options.put("properties.max.poll.records", Integer.toString(maxPollRecords));
        }
        if (scanBatchRows > 0 && connector.endsWith("-columnar")) {
            options.put("columnar.scan.max-batch-rows", Integer.toString(scanBatchRows));
        }
        if (scanBatchTimeMs >= 0 && connector.endsWith("-columnar")) {
            options.put("columnar.scan.max-batch-time", scanBatchTimeMs + " ms");
        }
    }

    /** The result table's producer options for these settings. */
    void addSinkOptions(Map<String, String> options) {
        if (producerBatchSize >= 0) {
            options.put("properties.batch.size", Integer.toString(producerBatchSize));
        }
        if (producerLingerMs >= 0) {
            options.put("properties.linger.ms", Integer.toString(producerLingerMs));
        }
        if (producerBufferMemory > 0) {
            options.put("properties.buffer.memory", Long.toString(producerBufferMemory));
        }
    }

    /** What the report says of the settings a run changed; empty for Kafka's defaults. */
    String describe() {
        StringBuilder text = new StringBuilder();
        if (maxPollRecords > 0) {
            text.append(String.format(Locale.ROOT, "The source table sets `properties.max.poll.records` = %d in both"
                    + " variants (Kafka's default is 500): a fetch, and so a columnar scan's batch, is at most %d"
                    + " records.%n%n", maxPollRecords, maxPollRecords));
        }
        if (scanBatchRows > 0) {
            text.append(String.format(Locale.ROOT, "The columnar source table sets `columnar.scan.max-batch-rows` ="
                    + " %d: a columnar scan's batch is at most %d rows (stock Flink's source emits one record at a"
                    + " time).%n%n", scanBatchRows, scanBatchRows));
        }
        if (scanBatchTimeMs >= 0) {
            text.append(scanBatchTimeMs == 0
                    ? String.format(Locale.ROOT, "The columnar source table sets `columnar.scan.max-batch-time` = 0 ms:"
                            + " no time target, a columnar scan's batch is cut by the row cap and the fetch only.%n%n")
                    : String.format(Locale.ROOT, "The columnar source table sets `columnar.scan.max-batch-time` = %d ms:"
                            + " each reader cuts a batch to the records its recent steps took %d ms for (stock Flink's"
                            + " source emits one record at a time).%n%n", scanBatchTimeMs, scanBatchTimeMs));
        }
        if (producerBatchSize >= 0 || producerLingerMs >= 0) {
            text.append(String.format(Locale.ROOT, "The result table's producer sets %s in both variants (Kafka's"
                    + " defaults: batch.size 16384, linger.ms 5).%n%n",
                    (producerBatchSize >= 0 ? "`properties.batch.size` = " + producerBatchSize : "")
                            + (producerBatchSize >= 0 && producerLingerMs >= 0 ? " and " : "")
                            + (producerLingerMs >= 0 ? "`properties.linger.ms` = " + producerLingerMs : "")));
        }
        if (producerBufferMemory > 0) {
            text.append(String.format(Locale.ROOT, "The result table's producer sets `properties.buffer.memory` = %d in"
                    + " both variants (Kafka's default 33554432): the most it holds unsent, and so the most the"
                    + " exactly-once sink's flush at a checkpoint drains.%n%n", producerBufferMemory));
        }
        return text.toString();
    }
}
