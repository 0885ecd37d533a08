package io.columnarkafka.client;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration of an {@link ArrowKafkaSink}: string keys and values, spelled as Flink's Kafka table
 * options where Flink has one ({@code topic}, {@code properties.*}, {@code value.format}, {@code
 * value.<format>.<option>}, {@code key.fields}, {@code sink.delivery-guarantee}, ...), built with {@link
 * #builder()} or taken from a map with {@link #fromMap}. Nothing is checked here: {@link
 * ArrowKafkaSink#validate()} reports every problem at once.
 */
public final class ArrowKafkaSinkConfig {
    public static final String TOPIC = "topic";
    public static final String TOPIC_COLUMN = "sink.topic-column";
    public static final String BOOTSTRAP_SERVERS = "properties.bootstrap.servers";
    public static final String PROPERTIES_PREFIX = "properties.";
    public static final String VALUE_FORMAT = "value.format";
    public static final String VALUE_FIELDS_INCLUDE = "value.fields-include";
    public static final String KEY_FORMAT = "key.format";
    public static final String KEY_FIELDS = "key.fields";
    public static final String KEY_FIELDS_PREFIX = "key.fields-prefix";
    public static final String DELIVERY_GUARANTEE = "sink.delivery-guarantee";
    public static final String TRANSACTIONAL_ID_PREFIX = "sink.transactional-id-prefix";
    public static final String TRANSACTIONAL_ID_POOL_SIZE = "sink.transactional-id-pool-size";
    public static final String PARTITIONER = "sink.partitioner";
    public static final String WRITER_INDEX = "sink.writer-index";
    public static final String TIMESTAMP_COLUMN = "sink.timestamp-column";
    public static final String HEADERS_COLUMN = "sink.headers-column";
    public static final String FLUSH_INTERVAL = "sink.flush-interval";

    private final Map<String, String> values;

    private ArrowKafkaSinkConfig(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A configuration from raw keys and values, e.g. read from a properties file. */
    public static ArrowKafkaSinkConfig fromMap(Map<String, String> values) {
        return new ArrowKafkaSinkConfig(values);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every key and value, in the order given. */
    public Map<String, String> toMap() {
        return values;
    }

    @Override
    public String toString() {
        return values.toString();
    }

    /** Sets the keys of {@link ArrowKafkaSinkConfig} with typed methods. */
    public static final class Builder {
        private final Map<String, String> values = new LinkedHashMap<>();

        private Builder() {}

        /** The topic every record goes to; with {@link #topicColumn}, the allowed topics instead. */
        public Builder topic(String topic) {
            return set(TOPIC, topic);
        }

        /** Each row's topic from this STRING column (Flink's writable {@code topic} metadata). */
        public Builder topicColumn(String column) {
            return set(TOPIC_COLUMN, column);
        }

        public Builder bootstrapServers(String servers) {
            return set(BOOTSTRAP_SERVERS, servers);
        }

        /** Flink's format identifier for values and its options (Flink's keys without the format prefix). */
        public Builder valueFormat(String format, Map<String, String> options) {
            return format(VALUE_FORMAT, "value.", format, options);
        }

        /** {@code ALL} (default: key columns are also in the value) or {@code EXCEPT_KEY}. */
        public Builder valueFieldsInclude(String include) {
            return set(VALUE_FIELDS_INCLUDE, include);
        }

        /** The key columns, in key order; without them the key is null. */
        public Builder keyFields(String... fields) {
            return set(KEY_FIELDS, String.join(";", fields));
        }

        /** Flink's {@code key.fields-prefix}: stripped from the key columns' names in the key format. */
        public Builder keyFieldsPrefix(String prefix) {
            return set(KEY_FIELDS_PREFIX, prefix);
        }

        public Builder keyFormat(String format, Map<String, String> options) {
            return format(KEY_FORMAT, "key.", format, options);
        }

        /** The format under {@code formatKey} and each option as {@code <prefix><format>.<option>}, as Flink's. */
        private Builder format(String formatKey, String prefix, String format, Map<String, String> options) {
            set(formatKey, format);
            options.forEach((key, value) -> set(prefix + format + "." + key, value));
            return this;
        }

        public Builder deliveryGuarantee(DeliveryGuarantee guarantee) {
            return set(DELIVERY_GUARANTEE, guarantee.spelling());
        }

        /** Prefix of the transactional ids ({@code <prefix>-0} ... {@code <prefix>-<pool size - 1>}). */
        public Builder transactionalIdPrefix(String prefix) {
            return set(TRANSACTIONAL_ID_PREFIX, prefix);
        }

        /** How many epochs may be prepared but not yet committed at once, plus the one being written; default 2. */
        public Builder transactionalIdPoolSize(int size) {
            return set(TRANSACTIONAL_ID_POOL_SIZE, Integer.toString(size));
        }

        /** {@code default}, {@code round-robin}, {@code fixed} or a {@code Partitioner} class name. */
        public Builder partitioner(String partitioner) {
            return set(PARTITIONER, partitioner);
        }

        /** This writer's index among parallel writers, for the {@code fixed} partitioner; default 0. */
        public Builder writerIndex(int index) {
            return set(WRITER_INDEX, Integer.toString(index));
        }

        /** Each record's timestamp from this TIMESTAMP, TIMESTAMP_LTZ or BIGINT (epoch millis) column. */
        public Builder timestampColumn(String column) {
            return set(TIMESTAMP_COLUMN, column);
        }

        /** Each record's headers from this MAP&lt;STRING, BYTES&gt; column (Flink's {@code headers} metadata). */
        public Builder headersColumn(String column) {
            return set(HEADERS_COLUMN, column);
        }

        /** How often a caller without checkpoints of its own should flush or end an epoch; default 1 s. */
        public Builder flushInterval(Duration interval) {
            return set(FLUSH_INTERVAL, interval.toMillis() + " ms");
        }

        /** A Kafka producer property, e.g. {@code linger.ms}. */
        public Builder producerProperty(String key, String value) {
            return set(PROPERTIES_PREFIX + key, value);
        }

        /** Any key of the configuration. */
        public Builder set(String key, String value) {
            values.put(key, value);
            return this;
        }

        public ArrowKafkaSinkConfig build() {
            return new ArrowKafkaSinkConfig(values);
        }
    }

    /** The keys a configuration may hold besides the prefixed families. */
    static List<String> plainKeys() {
        return List.of(TOPIC, TOPIC_COLUMN, VALUE_FORMAT, VALUE_FIELDS_INCLUDE, KEY_FORMAT, KEY_FIELDS,
                KEY_FIELDS_PREFIX, DELIVERY_GUARANTEE, TRANSACTIONAL_ID_PREFIX, TRANSACTIONAL_ID_POOL_SIZE,
                PARTITIONER, WRITER_INDEX, TIMESTAMP_COLUMN, HEADERS_COLUMN, FLUSH_INTERVAL);
    }
}
