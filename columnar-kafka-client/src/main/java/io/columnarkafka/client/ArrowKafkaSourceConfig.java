package io.columnarkafka.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.common.TopicPartition;

/**
 * The configuration of an {@link ArrowKafkaSource}: string keys and values, spelled as Flink's Kafka table
 * options where Flink has one ({@code topic}, {@code properties.*}, {@code value.format}, {@code
 * value.<format>.<option>}, {@code key.fields}, {@code scan.startup.mode}, ...), built with {@link #builder()}
 * or taken from a map with {@link #fromMap}. Nothing is checked here: {@link ArrowKafkaSource#validate()}
 * reports every problem at once.
 */
public final class ArrowKafkaSourceConfig {
    /** The row type of the batches, a Flink SQL type string such as {@code ROW<id BIGINT, name STRING>}. */
    public static final String ROW_TYPE = "row-type";
    public static final String TOPIC = "topic";
    /** A Java regular expression: every topic whose whole name matches, found again at each metadata refresh. */
    public static final String TOPIC_PATTERN = "topic-pattern";
    /** Explicit partitions instead of topics: {@code <topic>:<partition>}, {@code ;}-separated; no group needed. */
    public static final String PARTITIONS = "scan.partitions";
    public static final String BOOTSTRAP_SERVERS = "properties.bootstrap.servers";
    public static final String GROUP_ID = "properties.group.id";
    public static final String ISOLATION_LEVEL = "properties.isolation.level";
    public static final String PROPERTIES_PREFIX = "properties.";
    public static final String VALUE_FORMAT = "value.format";
    public static final String VALUE_FIELDS_INCLUDE = "value.fields-include";
    public static final String KEY_FORMAT = "key.format";
    public static final String KEY_FIELDS = "key.fields";
    public static final String KEY_FIELDS_PREFIX = "key.fields-prefix";
    public static final String STARTUP_MODE = "scan.startup.mode";
    public static final String STARTUP_SPECIFIC_OFFSETS = "scan.startup.specific-offsets";
    public static final String STARTUP_TIMESTAMP_MILLIS = "scan.startup.timestamp-millis";
    public static final String MAX_BATCH_ROWS = "scan.batch.max-rows";
    public static final String MAX_BATCH_BYTES = "scan.batch.max-bytes";
    public static final String ALLOCATOR_LIMIT = "scan.allocator-limit";
    /** Kafka record metadata appended to each batch: {@code key} or {@code key AS name}, {@code ;}-separated. */
    public static final String METADATA_COLUMNS = "metadata-columns";
    public static final String BOUNDED_MODE = "scan.bounded.mode";
    public static final String BOUNDED_SPECIFIC_OFFSETS = "scan.bounded.specific-offsets";
    public static final String BOUNDED_TIMESTAMP_MILLIS = "scan.bounded.timestamp-millis";

    private final Map<String, String> values;

    private ArrowKafkaSourceConfig(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A configuration from raw keys and values, e.g. read from a properties file. */
    public static ArrowKafkaSourceConfig fromMap(Map<String, String> values) {
        return new ArrowKafkaSourceConfig(values);
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

    /** Sets the keys of {@link ArrowKafkaSourceConfig} with typed methods. */
    public static final class Builder {
        private final Map<String, String> values = new LinkedHashMap<>();

        private Builder() {}

        /** The row type of the batches, e.g. {@code ROW<id BIGINT, name STRING>}: key fields, then the rest. */
        public Builder rowType(String rowType) {
            return set(ROW_TYPE, rowType);
        }

        public Builder rowType(RowType rowType) {
            return set(ROW_TYPE, rowType.asSerializableString());
        }

        /** The topics to subscribe to, as a member of the consumer group {@link #groupId}. */
        public Builder topics(String... topics) {
            return set(TOPIC, String.join(";", topics));
        }

        /**
         * Every topic whose whole name matches {@code regex} (a Java regular expression, as Flink's {@code
         * topic-pattern}), as a member of the consumer group; topics created later join at Kafka's next metadata
         * refresh ({@code metadata.max.age.ms}, 5 minutes unless set).
         */
        public Builder topicPattern(String regex) {
            return set(TOPIC_PATTERN, regex);
        }

        /** These partitions only, assigned without group membership (a group id is then needed only to commit). */
        public Builder partitions(List<TopicPartition> partitions) {
            return set(PARTITIONS, partitions.stream().map(p -> p.topic() + ":" + p.partition())
                    .collect(Collectors.joining(";")));
        }

        public Builder bootstrapServers(String servers) {
            return set(BOOTSTRAP_SERVERS, servers);
        }

        public Builder groupId(String groupId) {
            return set(GROUP_ID, groupId);
        }

        /** {@code read_committed} (default: aborted transactions' records are never seen) or {@code read_uncommitted}. */
        public Builder isolationLevel(String level) {
            return set(ISOLATION_LEVEL, level);
        }

        /** A Kafka consumer property, e.g. {@code max.poll.records}. */
        public Builder consumerProperty(String key, String value) {
            return set(PROPERTIES_PREFIX + key, value);
        }

        /** Flink's format identifier for values and its options (Flink's keys without the format prefix). */
        public Builder valueFormat(String format, Map<String, String> options) {
            return format(VALUE_FORMAT, "value.", format, options);
        }

        /** {@code ALL} (default: the value holds the key fields too, and its values win) or {@code EXCEPT_KEY}. */
        public Builder valueFieldsInclude(String include) {
            return set(VALUE_FIELDS_INCLUDE, include);
        }

        /** The fields read from the record key, in key order, as Flink's {@code key.fields}; needs a key format. */
        public Builder keyFields(String... fields) {
            return set(KEY_FIELDS, String.join(";", fields));
        }

        /** Flink's {@code key.fields-prefix}: the key format sees the key fields without it. */
        public Builder keyFieldsPrefix(String prefix) {
            return set(KEY_FIELDS_PREFIX, prefix);
        }

        public Builder keyFormat(String format, Map<String, String> options) {
            return format(KEY_FORMAT, "key.", format, options);
        }

        private Builder format(String formatKey, String prefix, String format, Map<String, String> options) {
            set(formatKey, format);
            options.forEach((key, value) -> set(prefix + format + "." + key, value));
            return this;
        }

        /** Each partition from its earliest offset, the first time this source is given it. */
        public Builder startFromEarliest() {
            return set(STARTUP_MODE, "earliest-offset");
        }

        /** Each partition from its end, the first time this source is given it. */
        public Builder startFromLatest() {
            return set(STARTUP_MODE, "latest-offset");
        }

        /**
         * Each partition from the group's committed offset (Flink's default mode, {@code group-offsets}); one
         * without a commit as {@code properties.auto.offset.reset} says ({@code none}, Flink's default: fail).
         */
        public Builder startFromCommitted() {
            return set(STARTUP_MODE, "group-offsets");
        }

        /** Partition {@code p} of each topic from {@code offsets.get(p)}; the others from committed, else earliest. */
        public Builder startFromOffsets(Map<Integer, Long> offsets) {
            set(STARTUP_MODE, "specific-offsets");
            return set(STARTUP_SPECIFIC_OFFSETS, offsetList(offsets));
        }

        /** Each partition from its first record with a timestamp at or after {@code epochMillis}, else its end. */
        public Builder startFromTimestamp(long epochMillis) {
            set(STARTUP_MODE, "timestamp");
            return set(STARTUP_TIMESTAMP_MILLIS, Long.toString(epochMillis));
        }

        /**
         * Kafka record metadata appended to each batch after the row type's fields, in this order, with Flink's keys
         * and types ({@code topic}, {@code partition}, {@code offset}, {@code timestamp}, {@code timestamp-type},
         * {@code headers}, {@code leader-epoch}); each column named as its key, or {@code key AS name}.
         */
        public Builder metadataColumns(String... keys) {
            return set(METADATA_COLUMNS, String.join(";", keys));
        }

        /** Bounded: each partition ends at its end offset when this source first sees it (Flink's {@code latest-offset}). */
        public Builder stopAtLatest() {
            return set(BOUNDED_MODE, "latest-offset");
        }

        /** Bounded: each partition ends at the group's committed offset (Flink's {@code group-offsets}). */
        public Builder stopAtCommitted() {
            return set(BOUNDED_MODE, "group-offsets");
        }

        /**
         * Bounded: partition {@code p} of each topic ends before {@code offsets.get(p)}; the others at the group's
         * commit, else at their earliest offset (nothing read), as Flink's {@code specific-offsets}.
         */
        public Builder stopAtOffsets(Map<Integer, Long> offsets) {
            set(BOUNDED_MODE, "specific-offsets");
            return set(BOUNDED_SPECIFIC_OFFSETS, offsetList(offsets));
        }

        /** Flink's {@code partition:0,offset:42;partition:1,offset:300}. */
        private static String offsetList(Map<Integer, Long> offsets) {
            return offsets.entrySet().stream().map(e -> "partition:" + e.getKey() + ",offset:" + e.getValue())
                    .collect(Collectors.joining(";"));
        }

        /** Bounded: each partition ends before its first record with a timestamp at or after {@code epochMillis}. */
        public Builder stopAtTimestamp(long epochMillis) {
            set(BOUNDED_MODE, "timestamp");
            return set(BOUNDED_TIMESTAMP_MILLIS, Long.toString(epochMillis));
        }

        /** Most records of one batch (default 4096; a poll also gives at most {@code max.poll.records}). */
        public Builder maxBatchRows(int rows) {
            return set(MAX_BATCH_ROWS, Integer.toString(rows));
        }

        /** Most key and value bytes of one batch's records (default 8 MiB); a larger record makes a batch alone. */
        public Builder maxBatchBytes(long bytes) {
            return set(MAX_BATCH_BYTES, Long.toString(bytes));
        }

        /** Bound of the source's Arrow allocator, all batches not yet closed together (default 256 MiB). */
        public Builder allocatorLimit(long bytes) {
            return set(ALLOCATOR_LIMIT, Long.toString(bytes));
        }

        /** Any key of the configuration. */
        public Builder set(String key, String value) {
            values.put(key, value);
            return this;
        }

        public ArrowKafkaSourceConfig build() {
            return new ArrowKafkaSourceConfig(values);
        }
    }

    /** The keys a configuration may hold besides the prefixed families. */
    static List<String> plainKeys() {
        return List.of(ROW_TYPE, TOPIC, TOPIC_PATTERN, PARTITIONS, VALUE_FORMAT, VALUE_FIELDS_INCLUDE, KEY_FORMAT, KEY_FIELDS,
                KEY_FIELDS_PREFIX, STARTUP_MODE, STARTUP_SPECIFIC_OFFSETS, STARTUP_TIMESTAMP_MILLIS, MAX_BATCH_ROWS,
                MAX_BATCH_BYTES, ALLOCATOR_LIMIT, METADATA_COLUMNS, BOUNDED_MODE, BOUNDED_SPECIFIC_OFFSETS,
                BOUNDED_TIMESTAMP_MILLIS);
    }
}
