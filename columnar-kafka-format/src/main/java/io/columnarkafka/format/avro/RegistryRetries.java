package io.columnarkafka.format.avro;

import java.time.Duration;

/**
 * How {@link SchemaRegistryClient} rides out a registry that is down, slow or overloaded: each request times out
 * after {@code requestTimeout}; a failure that may pass (no connection, a timeout, HTTP 408, 429 or 5xx) is retried
 * up to {@code maxRetries} times, waiting {@code initialWait} and then twice as long each time, at most
 * {@code maxWait}. Any other answer (a 4xx: an incompatible schema, an unknown subject, no authorization) fails at
 * once. {@link #DEFAULT} follows the Confluent client's defaults ({@code max.retries} 3, {@code retries.wait.ms}
 * 1000, {@code retries.max.wait.ms} 20000), with the 30 s request timeout this client always had.
 */
record RegistryRetries(int maxRetries, Duration initialWait, Duration maxWait, Duration requestTimeout) {
    static final RegistryRetries DEFAULT =
            new RegistryRetries(3, Duration.ofSeconds(1), Duration.ofSeconds(20), Duration.ofSeconds(30));

    /** The wait before retry {@code retry} (1 for the first). */
    Duration waitBefore(int retry) {
        long millis = initialWait.toMillis() << Math.min(retry - 1, 20);
        return Duration.ofMillis(Math.min(millis, maxWait.toMillis()));
    }

    /** Whether an HTTP status may pass on retry. */
    static boolean transientStatus(int status) {
        return status == 408 || status == 429 || status >= 500;
    }
}
