package io.columnarkafka.flink.source;

import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.KafkaMetadata;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.batch.ArrowWarmUp;
import io.columnarkafka.flink.source.enumerator.NoMoreSplitsAfterDiscovery;
import io.columnarkafka.flink.source.reader.BatchTimeCap;
import io.columnarkafka.flink.source.reader.ChunkEmitter;
import io.columnarkafka.flink.source.reader.ChunkingSplitReader;
import io.columnarkafka.flink.source.reader.ColumnarKafkaSourceReader;
import io.columnarkafka.format.RowTypes;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultTypeDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.LineageUtil;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads Kafka records into Arrow batches: each fetch's records of one split are decoded in one call into
 * one batch (at most {@code maxBatchRows} rows and about {@code maxBatchBytes} record bytes), in the
 * values Flink's own deserializers produce.
 *
 * <p><b>Flink owns Kafka.</b> Partition discovery, split assignment, the enumerator's state and the split
 * serializers are those of a real {@link KafkaSource} built from the same settings, and the reader polls
 * through Flink's own {@code KafkaPartitionSplitReader} (its seeks, stopping offsets and commits). Only
 * the grouping of records into chunks, the decoding and the emitting are this project's; the emitter
 * moves a split's offset past a chunk only after emitting its batch, so a checkpoint never records an
 * offset ahead of emitted data, and offsets are committed to Kafka when a checkpoint completes.
 *
 * <pre>{@code
 * ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
 *     .setBootstrapServers(servers)
 *     .setTopics("bids")
 *     .setGroupId("bids-reader")
 *     .setStartingOffsets(OffsetsInitializer.earliest())
 *     .setRowType("ROW<auction BIGINT, price BIGINT, dateTime TIMESTAMP(3)>")
 *     .setValueFormat("json", Map.of())
 *     .build();
 * DataStream<ArrowBatch> bids = env.fromSource(source, WatermarkStrategy.noWatermarks(), "bids");
 * }</pre>
 *
 * @param <T> what is emitted per batch: {@link ArrowBatch} from {@link Builder#build()}, or the type of
 *     a {@link BatchOutputFactory} given to {@link Builder#build(BatchOutputFactory)}
 */
public final class ColumnarKafkaSource<T>
        implements Source<T, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<T>, LineageVertexProvider {
    private static final long serialVersionUID = 1L;

    /** Default cap on the rows of one batch. */
    public static final int DEFAULT_MAX_BATCH_ROWS = 4096;
    /**
     * Default target time of decoding and emitting one batch: none, as a loaded A/B of 5 ms showed no shorter
     * checkpoints (docs/nexmark.md, "A time target per batch"); see {@link Builder#setMaxBatchTime}.
     */
    public static final Duration DEFAULT_MAX_BATCH_TIME = Duration.ZERO;
    /** Default cap on the key and value bytes of the records of one batch. */
    public static final long DEFAULT_MAX_BATCH_BYTES = 8L << 20;
    /** Default bound of each reader's Arrow allocator. */
    public static final long DEFAULT_ALLOCATOR_LIMIT = 256L << 20;

    private final KafkaSource<?> kafkaSource;
    private final Properties properties;
    private final DecodingSpec spec;
    private final int timestampField;
    private final int maxBatchRows;
    private final long maxBatchTimeNanos;
    private final long maxBatchBytes;
    private final long allocatorLimit;
    private final BatchOutputFactory<T> output;

    private ColumnarKafkaSource(
            KafkaSource<?> kafkaSource,
            DecodingSpec spec,
            int timestampField,
            int maxBatchRows,
            long maxBatchTimeNanos,
            long maxBatchBytes,
            long allocatorLimit,
            BatchOutputFactory<T> output) {
        this.kafkaSource = kafkaSource;
        this.properties = KafkaSourceProperties.forReaders(kafkaSource);
        this.spec = spec;
        this.timestampField = timestampField;
        this.maxBatchRows = maxBatchRows;
        this.maxBatchTimeNanos = maxBatchTimeNanos;
        this.maxBatchBytes = maxBatchBytes;
        this.allocatorLimit = allocatorLimit;
        this.output = output;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Boundedness getBoundedness() {
        return kafkaSource.getBoundedness();
    }

    /**
     * The lineage a job status listener reads off the job's lineage graph, as a stock {@code KafkaSource} gives it:
     * the {@code KafkaSource}'s datasets (the cluster's namespace, the topics or pattern, the consumer's properties),
     * each with the type this source produces, where the {@code KafkaSource} (which decodes nothing here) would name
     * its deserializer's.
     */
    @Override
    public SourceLineageVertex getLineageVertex() {
        List<LineageDataset> datasets = new ArrayList<>();
        for (LineageDataset dataset : kafkaSource.getLineageVertex().datasets()) {
            datasets.add(LineageUtil.datasetOf(dataset.namespace(),
                    (KafkaDatasetFacet) dataset.facets().get(DefaultKafkaDatasetFacet.KAFKA_FACET_NAME),
                    new DefaultTypeDatasetFacet(getProducedType())));
        }
        return LineageUtil.sourceLineageVertexOf(datasets);
    }

    /**
     * Deserialized where the job runs: a TaskManager deserializes the source first thing when it builds the
     * source task's operator chain, well before the reader is created, so Arrow's one-time initialization starts
     * then, in the background ({@link ArrowWarmUp}). The job manager deserializes it too, for the enumerator, and
     * pays the same one-time initialization there.
     */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        ArrowWarmUp.start();
    }

    @Override
    public SourceReader<T, KafkaPartitionSplit> createReader(SourceReaderContext context) {
        KafkaSourceReaderMetrics kafkaMetrics = new KafkaSourceReaderMetrics(context.metricGroup());
        BatchTimeCap cap = new BatchTimeCap(maxBatchRows, maxBatchTimeNanos);
        ChunkEmitter<T> emitter = new ChunkEmitter<>(
                spec,
                timestampField,
                ArrowMemory.newChild("columnar-kafka-source subtask " + context.getIndexOfSubtask(),
                        allocatorLimit),
                output.create(context),
                new DecodeMetrics(context.metricGroup()),
                cap);
        try {
            return new ColumnarKafkaSourceReader<>(
                    () -> new ChunkingSplitReader(
                            new KafkaPartitionSplitReader(properties, context, kafkaMetrics), cap, maxBatchBytes),
                    emitter,
                    toConfiguration(properties),
                    context,
                    kafkaMetrics);
        } catch (RuntimeException e) {
            emitter.close();
            throw e;
        }
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return enumerator(context, kafkaSource::createEnumerator);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState state) {
        return enumerator(context, tracked -> {
            try {
                return kafkaSource.restoreEnumerator(tracked, state);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Flink's enumerator; bounded, wrapped so that its readers hear "no more splits" also after a
     * restore, where Flink's own enumerator never says it (see {@link NoMoreSplitsAfterDiscovery}).
     */
    private SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> enumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context,
            Function<SplitEnumeratorContext<KafkaPartitionSplit>, SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState>> create) {
        if (getBoundedness() == Boundedness.BOUNDED) {
            return new NoMoreSplitsAfterDiscovery<>(context, create);
        }
        return create.apply(context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return kafkaSource.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return kafkaSource.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return output.producedType();
    }

    /** What the readers decode. */
    public DecodingSpec decodingSpec() {
        return spec;
    }

    /**
     * The Kafka consumer properties the readers use: the delegate {@link KafkaSource}'s, as its builder set
     * them, but with Kafka's {@code ByteBufferDeserializer} for keys and values (views of the fetched
     * bytes, decoded in place, instead of a {@code byte[]} copy per record).
     */
    public Properties consumerProperties() {
        Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }

    private static Configuration toConfiguration(Properties properties) {
        Configuration config = new Configuration();
        properties.stringPropertyNames().forEach(key -> config.setString(key, properties.getProperty(key)));
        return config;
    }

    /**
     * Builds a {@link ColumnarKafkaSource}. Kafka settings go to {@code KafkaSource.builder()} unchanged,
     * which validates them and completes the consumer properties exactly as for Flink's own source.
     */
    public static final class Builder {
        private final KafkaSourceBuilder<Object> kafka = KafkaSource.builder();
        private RowType rowType;
        private String valueFormat;
        private Map<String, String> valueOptions = Map.of();
        private String keyFormat;
        private Map<String, String> keyOptions = Map.of();
        private List<String> keyFields = List.of();
        private String keyFieldsPrefix = "";
        private DecodingSpec.ValueFieldsInclude valueFieldsInclude = DecodingSpec.ValueFieldsInclude.ALL;
        private RowType valueFormatRowType;
        private List<KafkaMetadata> metadata = List.of();
        private boolean upsert;
        private String timestampField;
        private int maxBatchRows = DEFAULT_MAX_BATCH_ROWS;
        private Duration maxBatchTime = DEFAULT_MAX_BATCH_TIME;
        private long maxBatchBytes = DEFAULT_MAX_BATCH_BYTES;
        private long allocatorLimit = DEFAULT_ALLOCATOR_LIMIT;

        private Builder() {}

        public Builder setBootstrapServers(String bootstrapServers) {
            kafka.setBootstrapServers(bootstrapServers);
            return this;
        }

        public Builder setGroupId(String groupId) {
            kafka.setGroupId(groupId);
            return this;
        }

        public Builder setTopics(String... topics) {
            kafka.setTopics(topics);
            return this;
        }

        public Builder setTopics(List<String> topics) {
            kafka.setTopics(topics);
            return this;
        }

        public Builder setTopicPattern(Pattern topicPattern) {
            kafka.setTopicPattern(topicPattern);
            return this;
        }

        public Builder setPartitions(Set<TopicPartition> partitions) {
            kafka.setPartitions(partitions);
            return this;
        }

        public Builder setStartingOffsets(OffsetsInitializer startingOffsets) {
            kafka.setStartingOffsets(startingOffsets);
            return this;
        }

        /** Bounded mode: every split stops at these offsets, and the source finishes when all have. */
        public Builder setBounded(OffsetsInitializer stoppingOffsets) {
            kafka.setBounded(stoppingOffsets);
            return this;
        }

        /** Unbounded mode with stopping offsets (the source stays running once the splits stop). */
        public Builder setUnbounded(OffsetsInitializer stoppingOffsets) {
            kafka.setUnbounded(stoppingOffsets);
            return this;
        }

        public Builder setClientIdPrefix(String prefix) {
            kafka.setClientIdPrefix(prefix);
            return this;
        }

        /**
         * A consumer or source property, as {@code KafkaSourceBuilder#setProperty}, e.g. {@code
         * partition.discovery.interval.ms} or {@code commit.offsets.on.checkpoint}.
         */
        public Builder setProperty(String key, String value) {
            kafka.setProperty(key, value);
            return this;
        }

        public Builder setProperties(Properties properties) {
            kafka.setProperties(properties);
            return this;
        }

        /** The row type of the produced batches (their columns, in order). */
        public Builder setRowType(RowType rowType) {
            this.rowType = rowType;
            return this;
        }

        /** The row type as a Flink SQL type string, e.g. {@code ROW<id BIGINT, name STRING>}. */
        public Builder setRowType(String rowType) {
            return setRowType(RowTypes.parse(rowType));
        }

        /**
         * Flink's format identifier for values and its options (Flink's keys without the prefix). A changelog format
         * (debezium-json, canal-json, maxwell-json, ogg-json) gives each row's kind: the row type's last field, a
         * TINYINT after the metadata fields, holds each row's {@code RowKind.toByteValue()}, and one record gives no
         * row, one, or more (an update's two; a Canal event's data array).
         */
        public Builder setValueFormat(String format, Map<String, String> options) {
            this.valueFormat = format;
            this.valueOptions = Map.copyOf(options);
            return this;
        }

        /** Flink's format identifier for keys and its options; required with key fields. */
        public Builder setKeyFormat(String format, Map<String, String> options) {
            this.keyFormat = format;
            this.keyOptions = Map.copyOf(options);
            return this;
        }

        /** The fields decoded from the key, in key order, as Flink's {@code key.fields}. */
        public Builder setKeyFields(String... fields) {
            this.keyFields = List.of(fields);
            return this;
        }

        /** Flink's {@code key.fields-prefix}: the key format sees the key fields without it. */
        public Builder setKeyFieldsPrefix(String prefix) {
            this.keyFieldsPrefix = prefix;
            return this;
        }

        /**
         * The whole row Flink's value format converts (every value field of a table: Flink's {@code kafka}
         * source takes no projection), when the row type holds only some of them (default: the value fields of
         * the row type). json checks the fields it leaves out as Flink converts them, so a record Flink's source
         * rejects or skips for a field nobody reads is rejected or skipped here too, but builds nothing for them;
         * the positional formats (raw, csv, avro) need every field in the row type.
         */
        public Builder setValueFormatRowType(RowType valueFormatRowType) {
            this.valueFormatRowType = valueFormatRowType;
            return this;
        }

        /** Flink's {@code value.fields-include} (default {@code ALL}). */
        public Builder setValueFieldsInclude(DecodingSpec.ValueFieldsInclude include) {
            this.valueFieldsInclude = include;
            return this;
        }

        /**
         * Kafka record metadata held by the row type's last fields, in order (each field of the metadata's
         * {@link KafkaMetadata#type()}), as Flink's table source appends metadata columns.
         */
        public Builder setMetadata(List<KafkaMetadata> metadata) {
            this.metadata = List.copyOf(metadata);
            return this;
        }

        /**
         * Flink's upsert mode ({@code upsert-kafka}): a record with a null value is a DELETE row holding its key
         * fields and nulls elsewhere, every other row an INSERT; the row type's last field, a TINYINT after the
         * metadata fields (e.g. {@link io.columnarkafka.format.arrow.RowKindVector#SCAN_COLUMN}), holds each row's
         * {@code RowKind.toByteValue()}. Needs key fields.
         */
        public Builder setUpsertMode(boolean upsert) {
            this.upsert = upsert;
            return this;
        }

        /**
         * The TIMESTAMP or TIMESTAMP_LTZ field whose largest value in a batch is the batch's event time
         * (for a {@code WatermarkStrategy} without a timestamp assigner). Without it, a batch carries the
         * largest Kafka record timestamp of its records.
         */
        public Builder setTimestampField(String field) {
            this.timestampField = field;
            return this;
        }

        /** Cap on the rows of one batch (default {@value #DEFAULT_MAX_BATCH_ROWS}). */
        public Builder setMaxBatchRows(int rows) {
            require(rows > 0, "max batch rows must be positive, got " + rows);
            this.maxBatchRows = rows;
            return this;
        }

        /**
         * Target time of decoding and emitting one batch, the chained operators' work included (default {@link
         * Duration#ZERO}: none). The source task emits one batch per step of its mailbox loop and
         * a checkpoint's trigger waits for the step under way, so a batch of a whole fetch (Kafka's 500 records)
         * delays the barrier by its whole work. Each reader measures the wall time per record of its recent steps
         * and cuts the next batch to the records that fit the target (at least 16, at most the row cap).
         */
        public Builder setMaxBatchTime(Duration time) {
            require(!time.isNegative(), "max batch time must not be negative, got " + time);
            this.maxBatchTime = time;
            return this;
        }

        /**
         * Cap on the key and value bytes of the records of one batch (default 8 MiB); a single larger
         * record still makes a batch of its own.
         */
        public Builder setMaxBatchBytes(long bytes) {
            require(bytes > 0, "max batch bytes must be positive, got " + bytes);
            this.maxBatchBytes = bytes;
            return this;
        }

        /** Bound in bytes of each reader's Arrow allocator (default 256 MiB). */
        public Builder setAllocatorLimit(long bytes) {
            require(bytes > 0, "allocator limit must be positive, got " + bytes);
            this.allocatorLimit = bytes;
            return this;
        }

        /** A source of {@link ArrowBatch}es. */
        public ColumnarKafkaSource<ArrowBatch> build() {
            return build(ArrowBatchOutput.INSTANCE);
        }

        /**
         * A source emitting what {@code output} makes of each batch. Validates the settings, plans the
         * decoders once to fail fast on bad formats or options, and builds the {@link KafkaSource}.
         */
        public <T> ColumnarKafkaSource<T> build(BatchOutputFactory<T> output) {
            require(rowType != null, "a row type is required (setRowType)");
            require(valueFormat != null, "a value format is required (setValueFormat)");
            require(keyFields.isEmpty() || keyFormat != null, "key fields " + keyFields + " need a key format (setKeyFormat)");
            require(keyFields.isEmpty() == (keyFormat == null), "a key format needs key fields (setKeyFields)");
            DecodingSpec spec = new DecodingSpec(rowType, valueFormat, valueOptions, keyFormat, keyOptions, keyFields,
                    keyFieldsPrefix, valueFieldsInclude, metadata, upsert, valueFormatRowType);
            spec.valueDecoder();
            spec.keyDecoder();
            int timestampIndex = -1;
            if (timestampField != null) {
                timestampIndex = rowType.getFieldIndex(timestampField);
                require(timestampIndex >= 0, "timestamp field '" + timestampField + "' is not a field of "
                        + rowType.asSummaryString());
                LogicalTypeRoot root = rowType.getTypeAt(timestampIndex).getTypeRoot();
                require(root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                                || root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                        "timestamp field '" + timestampField + "' must be a TIMESTAMP or TIMESTAMP_LTZ, not "
                                + rowType.getTypeAt(timestampIndex).asSummaryString());
            }
            KafkaSource<Object> kafkaSource = kafka.setDeserializer(NoRecordDeserializer.INSTANCE).build();
            return new ColumnarKafkaSource<>(kafkaSource, spec, timestampIndex, maxBatchRows,
                    maxBatchTime.toNanos(), maxBatchBytes,
                    allocatorLimit, output);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
