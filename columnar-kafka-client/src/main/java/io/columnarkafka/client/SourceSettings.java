package io.columnarkafka.client;

import static io.columnarkafka.client.ArrowKafkaSourceConfig.ALLOCATOR_LIMIT;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.BOOTSTRAP_SERVERS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.BOUNDED_MODE;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.BOUNDED_SPECIFIC_OFFSETS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.BOUNDED_TIMESTAMP_MILLIS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.GROUP_ID;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.ISOLATION_LEVEL;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.KEY_FIELDS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.KEY_FIELDS_PREFIX;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.KEY_FORMAT;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.MAX_BATCH_BYTES;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.MAX_BATCH_ROWS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.METADATA_COLUMNS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.PARTITIONS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.PROPERTIES_PREFIX;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.ROW_TYPE;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.STARTUP_MODE;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.STARTUP_SPECIFIC_OFFSETS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.STARTUP_TIMESTAMP_MILLIS;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.TOPIC;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.TOPIC_PATTERN;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.VALUE_FIELDS_INCLUDE;
import static io.columnarkafka.client.ArrowKafkaSourceConfig.VALUE_FORMAT;

import io.columnarkafka.client.decode.ChunkDecoder;
import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.KafkaMetadata;
import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;

/**
 * A source configuration read: every key parsed, every problem collected (none thrown), and the decoders
 * planned once (the {@link DecodingSpec} and {@link ChunkDecoder} of Flink's Kafka source), so that a bad
 * format option or a field a format cannot decode is found before anything is opened.
 */
final class SourceSettings {
    static final int DEFAULT_MAX_BATCH_ROWS = 4096;
    static final long DEFAULT_MAX_BATCH_BYTES = 8L << 20;
    static final long DEFAULT_ALLOCATOR_LIMIT = 256L << 20;

    private static final Pattern SPECIFIC_OFFSET = Pattern.compile("\\s*partition:(\\d+)\\s*,\\s*offset:(\\d+)\\s*");
    /** One metadata column: {@code key} or {@code key AS name}. */
    private static final Pattern METADATA_COLUMN = Pattern.compile("\\s*(\\S+)(?:\\s+(?i:AS)\\s+(\\S+))?\\s*");
    /** Set by the source: keys and values are views of the fetched bytes, and it never commits on its own. */
    private static final Set<String> MANAGED_CONSUMER_PROPERTIES = Set.of(
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);

    /** Where a partition starts the first time this source is given it: Flink's {@code scan.startup.mode}. */
    enum StartupMode {
        EARLIEST("earliest-offset", "earliest"),
        LATEST("latest-offset", "latest"),
        COMMITTED("group-offsets", null),
        SPECIFIC("specific-offsets", "earliest"),
        TIMESTAMP("timestamp", "latest");

        final String spelling;
        /** The consumer's {@code auto.offset.reset}, as Flink's {@code KafkaSourceBuilder} sets it per mode. */
        final String offsetReset;

        StartupMode(String spelling, String offsetReset) {
            this.spelling = spelling;
            this.offsetReset = offsetReset;
        }
    }

    /** Where each partition ends: Flink's {@code scan.bounded.mode}, its stopping offsets ({@code OffsetsInitializer}). */
    enum BoundedMode {
        UNBOUNDED("unbounded"),
        /** The partition's end offset when this source first sees it (Flink's {@code OffsetsInitializer.latest()}). */
        LATEST("latest-offset"),
        /** The group's committed offset; none committed fails, as Flink's {@code committedOffsets()}. */
        COMMITTED("group-offsets"),
        /** The given offset; other partitions at the group's commit, else their earliest offset, as Flink's. */
        SPECIFIC("specific-offsets"),
        /** The first record at or after the timestamp, else the end offset, as Flink's {@code timestamp()}. */
        TIMESTAMP("timestamp");

        final String spelling;

        BoundedMode(String spelling) {
            this.spelling = spelling;
        }
    }

    final List<ConfigProblem> problems = new ArrayList<>();
    /** The row type of the batches: the configured row type, then the metadata columns. */
    RowType rowType;
    List<KafkaMetadata> metadata = List.of();
    List<String> topics = List.of();
    /** {@code topic-pattern}: subscribed by pattern instead of {@link #topics}. */
    Pattern topicPattern;
    List<TopicPartition> partitions = List.of();
    String groupId;
    StartupMode startupMode = StartupMode.COMMITTED;
    /** {@link StartupMode#SPECIFIC}: offset by partition number, for each topic. */
    final Map<Integer, Long> specificOffsets = new LinkedHashMap<>();
    long startupTimestamp;
    BoundedMode boundedMode = BoundedMode.UNBOUNDED;
    /** {@link BoundedMode#SPECIFIC}: stopping offset by partition number, for each topic. */
    final Map<Integer, Long> boundedOffsets = new LinkedHashMap<>();
    long boundedTimestamp;
    int maxBatchRows = DEFAULT_MAX_BATCH_ROWS;
    long maxBatchBytes = DEFAULT_MAX_BATCH_BYTES;
    long allocatorLimit = DEFAULT_ALLOCATOR_LIMIT;
    DecodingSpec spec;
    String decoding;
    final Properties consumerProperties = new Properties();

    private SourceSettings() {}

    static SourceSettings parse(ArrowKafkaSourceConfig config) {
        SourceSettings settings = new SourceSettings();
        settings.read(config.toMap());
        return settings;
    }

    private void read(Map<String, String> config) {
        String valueFormat = config.get(VALUE_FORMAT);
        String keyFormat = config.get(KEY_FORMAT);
        OptionFamilies options = OptionFamilies.sort(config, ArrowKafkaSourceConfig.plainKeys(), "consumer",
                this::consumerProperty, this::problem);
        if (!config.containsKey(BOOTSTRAP_SERVERS)) {
            problem(BOOTSTRAP_SERVERS, "is required");
        }
        groupId = config.get(GROUP_ID);
        readSubscription(config);
        readStartup(config);
        readBounded(config);
        readIsolation(config);
        maxBatchRows = (int) positive(config, MAX_BATCH_ROWS, DEFAULT_MAX_BATCH_ROWS, Integer.MAX_VALUE);
        maxBatchBytes = positive(config, MAX_BATCH_BYTES, DEFAULT_MAX_BATCH_BYTES, Long.MAX_VALUE);
        allocatorLimit = positive(config, ALLOCATOR_LIMIT, DEFAULT_ALLOCATOR_LIMIT, Long.MAX_VALUE);
        planDecoders(config, valueFormat, options.valueOptions(), keyFormat, options.keyOptions());
        consumerProperties.setProperty(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class.getName());
        consumerProperties.setProperty(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class.getName());
        consumerProperties.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    }

    private void readSubscription(Map<String, String> config) {
        String topicList = config.get(TOPIC);
        String pattern = config.get(TOPIC_PATTERN);
        String partitionList = config.get(PARTITIONS);
        boolean hasTopics = topicList != null && !topicList.isBlank();
        boolean hasPattern = pattern != null && !pattern.isBlank();
        boolean hasPartitions = partitionList != null && !partitionList.isBlank();
        int given = (hasTopics ? 1 : 0) + (hasPattern ? 1 : 0) + (hasPartitions ? 1 : 0);
        if (given != 1) {
            problem(TOPIC, "give one of " + TOPIC + " or " + TOPIC_PATTERN + " (subscribed as a group member) or "
                    + PARTITIONS + " (assigned), not " + (given == 0 ? "none" : given == 2 ? "two" : "all three"));
            return;
        }
        if (hasTopics || hasPattern) {
            if (hasTopics) {
                topics = Arrays.asList(topicList.trim().split("\\s*;\\s*"));
            } else {
                try {
                    topicPattern = Pattern.compile(pattern.trim());
                } catch (PatternSyntaxException e) {
                    problem(TOPIC_PATTERN, "is not a Java regular expression: " + e.getDescription() + " at index "
                            + e.getIndex() + " of '" + pattern + "'");
                }
            }
            if (groupId == null || groupId.isBlank()) {
                problem(GROUP_ID, "is required to subscribe to topics (or assign " + PARTITIONS + ")");
            }
            return;
        }
        List<TopicPartition> assigned = new ArrayList<>();
        for (String partition : partitionList.trim().split("\\s*;\\s*")) {
            int colon = partition.lastIndexOf(':');
            try {
                assigned.add(new TopicPartition(partition.substring(0, colon), Integer.parseInt(partition.substring(colon + 1))));
            } catch (RuntimeException e) {
                problem(PARTITIONS, "'" + partition + "' is not <topic>:<partition>");
            }
        }
        partitions = List.copyOf(assigned);
        topics = partitions.stream().map(TopicPartition::topic).distinct().toList();
    }

    private void readStartup(Map<String, String> config) {
        startupMode = mode(config, STARTUP_MODE, StartupMode.values(), m -> m.spelling, StartupMode.COMMITTED);
        readOffsets(config, STARTUP_MODE, startupMode == StartupMode.SPECIFIC, STARTUP_SPECIFIC_OFFSETS, specificOffsets);
        startupTimestamp = readTimestamp(config, STARTUP_MODE, startupMode == StartupMode.TIMESTAMP, STARTUP_TIMESTAMP_MILLIS);
        if (startupMode == StartupMode.COMMITTED && (groupId == null || groupId.isBlank())) {
            problem(GROUP_ID, "is required with " + STARTUP_MODE + " group-offsets (the default): committed offsets"
                    + " are a group's");
        }
        if (startupMode.offsetReset != null) {
            consumerProperties.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, startupMode.offsetReset);
        } else if (!consumerProperties.containsKey(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG)) {
            consumerProperties.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        }
    }

    private void readBounded(Map<String, String> config) {
        boundedMode = mode(config, BOUNDED_MODE, BoundedMode.values(), m -> m.spelling, BoundedMode.UNBOUNDED);
        readOffsets(config, BOUNDED_MODE, boundedMode == BoundedMode.SPECIFIC, BOUNDED_SPECIFIC_OFFSETS, boundedOffsets);
        boundedTimestamp = readTimestamp(config, BOUNDED_MODE, boundedMode == BoundedMode.TIMESTAMP, BOUNDED_TIMESTAMP_MILLIS);
        if ((boundedMode == BoundedMode.COMMITTED || boundedMode == BoundedMode.SPECIFIC)
                && (groupId == null || groupId.isBlank())) {
            problem(GROUP_ID, "is required with " + BOUNDED_MODE + " " + boundedMode.spelling + ": committed offsets"
                    + " are a group's");
        }
    }

    /** The mode spelled under {@code key}, {@code absent} without one, and reported (then {@code absent}) if unknown. */
    private <M> M mode(Map<String, String> config, String key, M[] modes, Function<M, String> spelling, M absent) {
        String mode = config.get(key);
        if (mode == null) {
            return absent;
        }
        for (M m : modes) {
            if (spelling.apply(m).equals(mode.trim())) {
                return m;
            }
        }
        problem(key, "must be one of " + Arrays.stream(modes).map(spelling).toList() + ", not '" + mode + "'");
        return absent;
    }

    /** {@code partition:<n>,offset:<n>;...} under {@code key}, required exactly when {@code used} (its mode's value). */
    private void readOffsets(Map<String, String> config, String modeKey, boolean used, String key, Map<Integer, Long> into) {
        String offsets = config.get(key);
        if (!used) {
            if (offsets != null) {
                problem(key, "is only used with " + modeKey + " specific-offsets");
            }
            return;
        }
        if (offsets == null || offsets.isBlank()) {
            problem(key, "is required with " + modeKey + " specific-offsets");
            return;
        }
        for (String offset : offsets.trim().split(";")) {
            Matcher m = SPECIFIC_OFFSET.matcher(offset);
            if (m.matches()) {
                into.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            } else {
                problem(key, "'" + offset + "' is not partition:<n>,offset:<n>");
            }
        }
    }

    /** Epoch millis under {@code key}, required exactly when {@code used} (its mode's value). */
    private long readTimestamp(Map<String, String> config, String modeKey, boolean used, String key) {
        if (!used) {
            if (config.containsKey(key)) {
                problem(key, "is only used with " + modeKey + " timestamp");
            }
            return 0;
        }
        if (!config.containsKey(key)) {
            problem(key, "is required with " + modeKey + " timestamp");
        }
        return positive(config, key, 0, Long.MAX_VALUE);
    }

    private void readIsolation(Map<String, String> config) {
        String level = config.getOrDefault(ISOLATION_LEVEL, "read_committed").trim().toLowerCase(Locale.ROOT);
        if (!level.equals("read_committed") && !level.equals("read_uncommitted")) {
            problem(ISOLATION_LEVEL, "must be read_committed or read_uncommitted, not '" + config.get(ISOLATION_LEVEL) + "'");
        }
        consumerProperties.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, level);
    }

    private void consumerProperty(String key, String value) {
        if (MANAGED_CONSUMER_PROPERTIES.contains(key)) {
            problem(PROPERTIES_PREFIX + key, "is set by the source (keys and values are read in place as byte"
                    + " buffers; offsets are committed only by commit())");
        } else if (!ConsumerConfig.configNames().contains(key)) {
            problem(PROPERTIES_PREFIX + key, "is not a Kafka consumer property");
        } else {
            consumerProperties.setProperty(key, value);
        }
    }

    private void planDecoders(Map<String, String> config, String valueFormat, Map<String, String> valueOptions,
            String keyFormat, Map<String, String> keyOptions) {
        String type = config.get(ROW_TYPE);
        if (type == null) {
            problem(ROW_TYPE, "is required, e.g. ROW<id BIGINT, name STRING>");
            return;
        }
        RowType physical;
        try {
            physical = RowTypes.parse(type);
        } catch (RuntimeException e) {
            problem(ROW_TYPE, "is not a Flink row type: " + e.getMessage());
            return;
        }
        rowType = withMetadata(physical, config.get(METADATA_COLUMNS));
        if (valueFormat == null) {
            problem(VALUE_FORMAT, "is required; supported: " + Formats.supported());
            return;
        }
        String fields = config.get(KEY_FIELDS);
        List<String> keyFields = fields == null || fields.isBlank() ? List.of()
                : Arrays.asList(fields.trim().split("\\s*;\\s*"));
        if (!keyFields.isEmpty() && keyFormat == null) {
            problem(KEY_FORMAT, "is required with " + KEY_FIELDS);
            return;
        }
        if (keyFields.isEmpty() && keyFormat != null) {
            problem(KEY_FIELDS, "is required with " + KEY_FORMAT);
            return;
        }
        DecodingSpec.ValueFieldsInclude include;
        try {
            include = DecodingSpec.ValueFieldsInclude.valueOf(
                    config.getOrDefault(VALUE_FIELDS_INCLUDE, "ALL").trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem(VALUE_FIELDS_INCLUDE, "must be ALL or EXCEPT_KEY, not " + config.get(VALUE_FIELDS_INCLUDE));
            return;
        }
        try {
            spec = new DecodingSpec(rowType, valueFormat, valueOptions, keyFormat, keyOptions, keyFields,
                    config.getOrDefault(KEY_FIELDS_PREFIX, ""), include, metadata, false, null);
        } catch (IllegalArgumentException e) {
            problem(keyFields.isEmpty() ? ROW_TYPE : KEY_FIELDS, e.getMessage());
            return;
        }
        String value = plan(VALUE_FORMAT, () -> valueFormat + " value (" + simpleName(spec.valueDecoder()) + ")");
        String key = keyFormat == null ? null
                : plan(KEY_FORMAT, () -> keyFormat + " key (" + simpleName(spec.keyDecoder()) + ")");
        if (value == null || (keyFormat != null && key == null)) {
            spec = null;
            return;
        }
        decoding = key == null ? value : value + ", " + key;
    }

    /**
     * {@code physical} followed by the metadata columns of {@code columns} ({@code key} or {@code key AS name},
     * {@code ;}-separated), of the types Flink's Kafka source gives them; sets {@link #metadata}.
     */
    private RowType withMetadata(RowType physical, String columns) {
        if (columns == null || columns.isBlank()) {
            return physical;
        }
        List<RowType.RowField> fields = new ArrayList<>(physical.getFields());
        Set<String> names = new HashSet<>(physical.getFieldNames());
        List<KafkaMetadata> keys = new ArrayList<>();
        for (String column : columns.trim().split(";")) {
            Matcher m = METADATA_COLUMN.matcher(column);
            KafkaMetadata key = m.matches() ? KafkaMetadata.of(m.group(1)).orElse(null) : null;
            if (key == null) {
                problem(METADATA_COLUMNS, "'" + column.trim() + "' is not <key> or <key> AS <name> with a key of "
                        + Arrays.stream(KafkaMetadata.values()).map(KafkaMetadata::key).toList());
                continue;
            }
            String name = m.group(2) == null ? key.key() : m.group(2);
            if (!names.add(name)) {
                problem(METADATA_COLUMNS, "column '" + name + "' is already a field; name it with <key> AS <name>");
                continue;
            }
            keys.add(key);
            fields.add(new RowType.RowField(name, key.type()));
        }
        metadata = List.copyOf(keys);
        return new RowType(physical.isNullable(), fields);
    }

    private static String simpleName(BatchDecoder decoder) {
        return decoder.getClass().getSimpleName();
    }

    private String plan(String key, Supplier<String> planned) {
        try {
            return planned.get();
        } catch (RuntimeException e) {
            problem(key, "cannot decode " + (key.equals(VALUE_FORMAT) ? "the value fields" : "the key fields")
                    + " of " + rowType.asSummaryString() + ": " + e.getMessage());
            return null;
        }
    }

    private long positive(Map<String, String> config, String key, long defaultValue, long max) {
        return OptionFamilies.number(config, key, defaultValue, 1, max, this::problem);
    }

    void problem(String key, String message) {
        problems.add(new ConfigProblem(key, message));
    }
}
