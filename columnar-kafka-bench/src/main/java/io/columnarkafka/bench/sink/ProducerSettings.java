package io.columnarkafka.bench.sink;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** The producer settings every variant runs with: the run's own plus what the benchmark itself needs. */
final class ProducerSettings {
    /** Below the broker's transaction.max.timeout.ms (15 min); Flink's KafkaSink would default to 1 h. */
    static final String TRANSACTION_TIMEOUT_MS = "60000";

    private ProducerSettings() {}

    /** The defaults of {@code bin/bench-sink}; {@code --producer k=v} overrides them. */
    static Map<String, String> defaults() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("batch.size", "65536");
        p.put("linger.ms", "5");
        p.put("compression.type", "none");
        return p;
    }

    static Properties of(RunSpec spec) {
        Properties p = new Properties();
        p.putAll(spec.producer());
        p.put("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS);
        p.put("interceptor.classes", ProducerClock.class.getName());
        return p;
    }
}
