package io.columnarkafka.client;

import static io.columnarkafka.client.ArrowKafkaSinkConfig.BOOTSTRAP_SERVERS;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.DELIVERY_GUARANTEE;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.FLUSH_INTERVAL;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.HEADERS_COLUMN;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.KEY_FIELDS;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.KEY_FIELDS_PREFIX;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.KEY_FORMAT;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.PARTITIONER;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.PROPERTIES_PREFIX;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.TIMESTAMP_COLUMN;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.TOPIC;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.TOPIC_COLUMN;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.TRANSACTIONAL_ID_POOL_SIZE;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.TRANSACTIONAL_ID_PREFIX;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.VALUE_FIELDS_INCLUDE;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.VALUE_FORMAT;
import static io.columnarkafka.client.ArrowKafkaSinkConfig.WRITER_INDEX;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.avro.AvroConfluentFormatOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * A configuration read against a row type: every key parsed, every problem collected (none thrown), and the
 * encoders planned once, so that a bad format option or a column a format cannot encode is found before
 * anything is opened.
 */
final class SinkSettings {
    static final int DEFAULT_POOL_SIZE = 2;
    static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(1);
    /** Kafka's default {@code transaction.timeout.ms}. */
    static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 60_000;

    private static final Pattern DURATION = Pattern.compile("\\s*(\\d+)\\s*(ms|s|min)?\\s*");
    private static final Set<String> MANAGED_PRODUCER_PROPERTIES = Set.of(
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);

    final List<ConfigProblem> problems = new ArrayList<>();
    final RowType rowType;
    DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.NONE;
    String topic;
    Set<String> allowedTopics = Set.of();
    int topicColumn = -1;
    int timestampColumn = -1;
    int headersColumn = -1;
    String valueFormat;
    String keyFormat;
    BatchEncoder valueEncoder;
    BatchEncoder keyEncoder;
    String transactionalIdPrefix;
    int poolSize = DEFAULT_POOL_SIZE;
    PartitionerKind partitioner = PartitionerKind.DEFAULT;
    String partitionerClass;
    int writerIndex;
    Duration flushInterval = DEFAULT_FLUSH_INTERVAL;
    final Properties producerProperties = new Properties();

    /** How records are spread over partitions. */
    enum PartitionerKind {
        /** Kafka's default: murmur2 of the key bytes, or sticky batches for null keys. */
        DEFAULT,
        /** Each record to the next partition of its topic, in turn. */
        ROUND_ROBIN,
        /** Every record to partition {@code writer index mod partitions}, as Flink's {@code fixed}. */
        FIXED,
        /** A {@code org.apache.kafka.clients.producer.Partitioner} class, given to the producer. */
        CUSTOM
    }

    private SinkSettings(RowType rowType) {
        this.rowType = rowType;
    }

    static SinkSettings parse(RowType rowType, ArrowKafkaSinkConfig config) {
        SinkSettings settings = new SinkSettings(rowType);
        settings.read(config.toMap());
        return settings;
    }

    boolean isValid() {
        return problems.isEmpty();
    }

    long transactionTimeoutMs() {
        Object configured = producerProperties.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        return configured == null ? DEFAULT_TRANSACTION_TIMEOUT_MS : Long.parseLong(configured.toString().trim());
    }

    String transactionalId(int slot) {
        return transactionalIdPrefix + "-" + slot;
    }

    private void read(Map<String, String> config) {
        valueFormat = config.get(VALUE_FORMAT);
        keyFormat = config.get(KEY_FORMAT);
        OptionFamilies options = OptionFamilies.sort(config, ArrowKafkaSinkConfig.plainKeys(), "producer",
                this::producerProperty, this::problem);
        readDelivery(config);
        readTopic(config);
        timestampColumn = metadataColumn(config, TIMESTAMP_COLUMN, this::isTimestampType,
                "TIMESTAMP, TIMESTAMP_LTZ or BIGINT (epoch milliseconds)");
        headersColumn = metadataColumn(config, HEADERS_COLUMN, SinkSettings::isHeadersType,
                "MAP<STRING, BYTES> (Flink's headers metadata type)");
        readPartitioner(config);
        flushInterval = duration(config, FLUSH_INTERVAL, DEFAULT_FLUSH_INTERVAL);
        if (!config.containsKey(BOOTSTRAP_SERVERS)) {
            problem(BOOTSTRAP_SERVERS, "is required");
        }
        planEncoders(config, options.valueOptions(), options.keyOptions());
    }

    private void readDelivery(Map<String, String> config) {
        String guarantee = config.get(DELIVERY_GUARANTEE);
        if (guarantee != null) {
            try {
                deliveryGuarantee = DeliveryGuarantee.parse(guarantee);
            } catch (IllegalArgumentException e) {
                problem(DELIVERY_GUARANTEE, e.getMessage());
            }
        }
        transactionalIdPrefix = config.get(TRANSACTIONAL_ID_PREFIX);
        poolSize = integer(config, TRANSACTIONAL_ID_POOL_SIZE, DEFAULT_POOL_SIZE, 1);
        if (deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            if (transactionalIdPrefix == null || transactionalIdPrefix.isBlank()) {
                problem(TRANSACTIONAL_ID_PREFIX, "is required with exactly-once (unique per writer: two writers"
                        + " with one prefix fence each other)");
            }
            if ("false".equalsIgnoreCase(producerProperties.getProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG))) {
                problem(PROPERTIES_PREFIX + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        "cannot be false with exactly-once (transactions need idempotence)");
            }
        } else if (transactionalIdPrefix != null) {
            problem(TRANSACTIONAL_ID_PREFIX, "is only used with exactly-once, not " + deliveryGuarantee.spelling());
        }
        if (config.containsKey(PROPERTIES_PREFIX + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)) {
            try {
                if (transactionTimeoutMs() <= 0) {
                    problem(PROPERTIES_PREFIX + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "must be positive");
                }
            } catch (NumberFormatException e) {
                problem(PROPERTIES_PREFIX + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "is not a number of milliseconds");
            }
        }
    }

    private void readTopic(Map<String, String> config) {
        String topics = config.get(TOPIC);
        String column = config.get(TOPIC_COLUMN);
        if (column == null) {
            if (topics == null || topics.isBlank()) {
                problem(TOPIC, "is required (or " + TOPIC_COLUMN + " for a topic per row)");
            } else if (topics.contains(";")) {
                problem(TOPIC, "names one topic; several are only allowed with " + TOPIC_COLUMN);
            } else {
                topic = topics.trim();
            }
            return;
        }
        if (topics != null && !topics.isBlank()) {
            allowedTopics = new LinkedHashSet<>(Arrays.asList(topics.trim().split("\\s*;\\s*")));
        }
        topicColumn = metadataColumn(config, TOPIC_COLUMN, t -> t.is(LogicalTypeRoot.VARCHAR)
                || t.is(LogicalTypeRoot.CHAR), "STRING");
    }

    private void readPartitioner(Map<String, String> config) {
        String value = config.getOrDefault(PARTITIONER, "default");
        switch (value) {
            case "default" -> partitioner = PartitionerKind.DEFAULT;
            case "round-robin" -> partitioner = PartitionerKind.ROUND_ROBIN;
            case "fixed" -> partitioner = PartitionerKind.FIXED;
            default -> {
                partitioner = PartitionerKind.CUSTOM;
                partitionerClass = value;
                try {
                    Class<?> type = Class.forName(value, false, SinkSettings.class.getClassLoader());
                    if (!org.apache.kafka.clients.producer.Partitioner.class.isAssignableFrom(type)) {
                        problem(PARTITIONER, "class " + value + " does not implement Kafka's Partitioner");
                    }
                } catch (ClassNotFoundException e) {
                    problem(PARTITIONER, "is not default, round-robin, fixed or a class on the classpath: " + value);
                }
            }
        }
        writerIndex = integer(config, WRITER_INDEX, 0, 0);
        if (partitioner != PartitionerKind.FIXED && config.containsKey(WRITER_INDEX)) {
            problem(WRITER_INDEX, "is only used by the fixed partitioner");
        }
        if (partitioner != PartitionerKind.CUSTOM
                && producerProperties.containsKey(ProducerConfig.PARTITIONER_CLASS_CONFIG)) {
            problem(PROPERTIES_PREFIX + ProducerConfig.PARTITIONER_CLASS_CONFIG,
                    "set the partitioner with " + PARTITIONER + " instead");
        }
    }

    private void producerProperty(String key, String value) {
        if (MANAGED_PRODUCER_PROPERTIES.contains(key)) {
            problem(PROPERTIES_PREFIX + key, "is set by the sink (transactional ids come from "
                    + TRANSACTIONAL_ID_PREFIX + "; keys and values are bytes)");
            return;
        }
        if (!ProducerConfig.configNames().contains(key)) {
            problem(PROPERTIES_PREFIX + key, "is not a Kafka producer property");
            return;
        }
        producerProperties.setProperty(key, value);
    }

    private void planEncoders(Map<String, String> config, Map<String, String> valueOptions, Map<String, String> keyOptions) {
        Set<Integer> metadata = new LinkedHashSet<>();
        for (int column : new int[] {topicColumn, timestampColumn, headersColumn}) {
            if (column >= 0) {
                metadata.add(column);
            }
        }
        int[] keyColumns = keyColumns(config, metadata);
        boolean exceptKey = readFieldsInclude(config, keyColumns);
        int[] valueColumns = IntStream.range(0, rowType.getFieldCount())
                .filter(i -> !metadata.contains(i))
                .filter(i -> !exceptKey || Arrays.stream(keyColumns).noneMatch(k -> k == i))
                .toArray();
        if (valueFormat == null) {
            problem(VALUE_FORMAT, "is required; supported: " + Formats.supported());
        } else {
            valueEncoder = plan(VALUE_FORMAT, valueFormat, Projection.of(rowType, valueColumns),
                    withDefaultSubject(valueFormat, valueOptions, false));
        }
        if (keyColumns.length > 0 && keyFormat == null) {
            problem(KEY_FORMAT, "is required with " + KEY_FIELDS);
        } else if (keyColumns.length == 0 && keyFormat != null && !config.containsKey(KEY_FIELDS)) {
            problem(KEY_FIELDS, "is required with " + KEY_FORMAT);
        } else if (keyColumns.length > 0) {
            String prefix = config.getOrDefault(KEY_FIELDS_PREFIX, "");
            List<String> names = new ArrayList<>();
            for (int column : keyColumns) {
                String name = rowType.getFieldNames().get(column);
                if (!name.startsWith(prefix)) {
                    problem(KEY_FIELDS_PREFIX, "key field '" + name + "' does not start with '" + prefix + "'");
                }
                names.add(name.startsWith(prefix) ? name.substring(prefix.length()) : name);
            }
            keyEncoder = plan(KEY_FORMAT, keyFormat, Projection.of(rowType, keyColumns).withNames(names),
                    withDefaultSubject(keyFormat, keyOptions, true));
        }
    }

    private int[] keyColumns(Map<String, String> config, Set<Integer> metadata) {
        String fields = config.get(KEY_FIELDS);
        if (fields == null || fields.isBlank()) {
            return new int[0];
        }
        List<Integer> columns = new ArrayList<>();
        for (String field : fields.trim().split("\\s*;\\s*")) {
            int index = rowType.getFieldIndex(field);
            if (index < 0) {
                problem(KEY_FIELDS, "'" + field + "' is not a column of " + rowType.asSummaryString());
            } else if (metadata.contains(index)) {
                problem(KEY_FIELDS, "'" + field + "' is a metadata column (topic, timestamp or headers)");
            } else {
                columns.add(index);
            }
        }
        return columns.stream().mapToInt(Integer::intValue).toArray();
    }

    private boolean readFieldsInclude(Map<String, String> config, int[] keyColumns) {
        String include = config.getOrDefault(VALUE_FIELDS_INCLUDE, "ALL").toUpperCase(Locale.ROOT);
        if (!include.equals("ALL") && !include.equals("EXCEPT_KEY")) {
            problem(VALUE_FIELDS_INCLUDE, "must be ALL or EXCEPT_KEY, not " + config.get(VALUE_FIELDS_INCLUDE));
        }
        return include.equals("EXCEPT_KEY") && keyColumns.length > 0;
    }

    private BatchEncoder plan(String key, String format, Projection projection, Map<String, String> options) {
        try {
            return Formats.encoder(format, projection, options);
        } catch (RuntimeException e) {
            problem(key, format + " cannot encode " + projection + ": " + e.getMessage());
            return null;
        }
    }

    /** As Flink's Kafka connector: {@code avro-confluent} without a subject uses {@code <topic>-value/-key}. */
    private Map<String, String> withDefaultSubject(String format, Map<String, String> options, boolean isKey) {
        return "avro-confluent".equals(format) && topic != null
                ? AvroConfluentFormatOptions.withDefaultSubject(options, topic, isKey)
                : options;
    }

    private int metadataColumn(
            Map<String, String> config, String key, java.util.function.Predicate<LogicalType> accepts, String types) {
        String name = config.get(key);
        if (name == null) {
            return -1;
        }
        int index = rowType.getFieldIndex(name);
        if (index < 0) {
            problem(key, "'" + name + "' is not a column of " + rowType.asSummaryString());
        } else if (!accepts.test(rowType.getTypeAt(index))) {
            problem(key, "column '" + name + "' is " + rowType.getTypeAt(index).asSummaryString() + "; expected " + types);
            return -1;
        }
        return index;
    }

    private boolean isTimestampType(LogicalType type) {
        return type.is(LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)
                || type.is(LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                || type.is(LogicalTypeRoot.BIGINT);
    }

    private static boolean isHeadersType(LogicalType type) {
        return type instanceof MapType map
                && (map.getKeyType().is(LogicalTypeRoot.VARCHAR) || map.getKeyType().is(LogicalTypeRoot.CHAR))
                && (map.getValueType().is(LogicalTypeRoot.VARBINARY) || map.getValueType().is(LogicalTypeRoot.BINARY));
    }

    private int integer(Map<String, String> config, String key, int defaultValue, int min) {
        return (int) OptionFamilies.number(config, key, defaultValue, min, Integer.MAX_VALUE, this::problem);
    }

    private Duration duration(Map<String, String> config, String key, Duration defaultValue) {
        String value = config.get(key);
        if (value == null) {
            return defaultValue;
        }
        Matcher m = DURATION.matcher(value);
        if (m.matches() && Long.parseLong(m.group(1)) > 0) {
            long amount = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2);
            return switch (unit) {
                case "s" -> Duration.ofSeconds(amount);
                case "min" -> Duration.ofMinutes(amount);
                default -> Duration.ofMillis(amount);
            };
        }
        problem(key, "must be a positive duration such as '500 ms', '2 s' or '1 min', not '" + value + "'");
        return defaultValue;
    }

    void problem(String key, String message) {
        problems.add(new ConfigProblem(key, message));
    }
}
