package io.columnarkafka.client;

/**
 * One thing wrong with a sink's or source's configuration or schema, as {@link ArrowKafkaSink#validate()} and
 * {@link ArrowKafkaSource#validate()} report it.
 *
 * @param key the configuration key concerned (or a column name for schema problems)
 * @param message what is wrong and what would be accepted
 */
public record ConfigProblem(String key, String message) {
    @Override
    public String toString() {
        return key + ": " + message;
    }
}
