package io.columnarkafka.bench.nexmark;

import java.util.Locale;
import java.util.Map;

/**
 * The Kafka client settings a run gives both variants' tables alike: the source table's {@code
 * properties.max.poll.records} and the result table's producer {@code properties.batch.size} and {@code
 * properties.linger.ms}. Unset, a table keeps Kafka's default (500 records; 16384 bytes; 5 ms since Kafka 4.0).
 *
 * @param maxPollRecords records per fetch, and so the most rows of a columnar scan's batch; 0 for Kafka's default
 * @param producerBatchSize bytes per producer batch; -1 for Kafka's default
 * @param producerLingerMs ms the producer waits to fill a batch; -1 for Kafka's default
 */
record ClientSettings(int maxPollRecords, int producerBatchSize, int producerLingerMs) {
    /** Kafka's defaults everywhere. */
    static final ClientSettings DEFAULTS = new ClientSettings(0, -1, -1);

    ClientSettings {
        if (maxPollRecords < 0) {
            throw new IllegalArgumentException("--max-poll-records is a positive number of records");
        }
        if (producerBatchSize < -1 || producerLingerMs < -1) {
            throw new IllegalArgumentException("--producer-batch-size and --producer-linger-ms are 0 or more");
        }
    }

    /** The source table's options for these settings. */
    void addSourceOptions(Map<String, String> options) {
        if (maxPollRecords > 0) {
            options.put("properties.max.poll.records", Integer.toString(maxPollRecords));
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
    }

    /** What the report says of the settings a run changed; empty for Kafka's defaults. */
    String describe() {
        StringBuilder text = new StringBuilder();
        if (maxPollRecords > 0) {
            text.append(String.format(Locale.ROOT, "The source table sets `properties.max.poll.records` = %d in both"
                    + " variants (Kafka's default is 500): a fetch, and so a columnar scan's batch, is at most %d"
                    + " records.%n%n", maxPollRecords, maxPollRecords));
        }
        if (producerBatchSize >= 0 || producerLingerMs >= 0) {
            text.append(String.format(Locale.ROOT, "The result table's producer sets %s in both variants (Kafka's"
                    + " defaults: batch.size 16384, linger.ms 5).%n%n",
                    (producerBatchSize >= 0 ? "`properties.batch.size` = " + producerBatchSize : "")
                            + (producerBatchSize >= 0 && producerLingerMs >= 0 ? " and " : "")
                            + (producerLingerMs >= 0 ? "`properties.linger.ms` = " + producerLingerMs : "")));
        }
        return text.toString();
    }
}
