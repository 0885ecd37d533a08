package io.columnarkafka.flink.sink;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.record.PreSerializedRecord;
import io.columnarkafka.flink.record.PreSerializedRecordSerializationSchema;
import io.columnarkafka.flink.record.PreSerializedRecordTypeInfo;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.avro.AvroConfluentFormatOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.types.logical.RowType;

/**
 * Writes a stream of Arrow batches to Kafka: an encode operator turns each batch into one pre-serialized
 * record per row, in the bytes of Flink's own format serializers, and Flink's unmodified {@link
 * KafkaSink}, chained right behind it, sends them. Delivery guarantees, transactions, recovery and
 * transactional ids are entirely the stock sink's; every Kafka setting goes to {@code KafkaSink.builder()}
 * as given.
 *
 * <pre>{@code
 * ColumnarKafkaSink.builder()
 *     .setRowType("ROW<id BIGINT, name STRING>")
 *     .setValueFormat("json", Map.of())
 *     .setTopic("bids")
 *     .setBootstrapServers(servers)
 *     .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
 *     .setTransactionalIdPrefix("bids-sink")
 *     .setUidPrefix("bids")
 *     .build()
 *     .sinkTo(batches);
 * }</pre>
 */
public final class ColumnarKafkaSink {
    /** Default bound of each encode subtask's Arrow allocator. */
    public static final long DEFAULT_ALLOCATOR_LIMIT = 256L << 20;

    private final EncodingSpec spec;
    private final KafkaSink<PreSerializedRecord> kafkaSink;
    private final int parallelism;
    private final String uidPrefix;
    private final long allocatorLimit;
    private final RecordSizeLimit sizeLimit;
    private final long maxQueueDelayNanos;

    private ColumnarKafkaSink(
            EncodingSpec spec,
            KafkaSink<PreSerializedRecord> kafkaSink,
            int parallelism,
            String uidPrefix,
            long allocatorLimit,
            RecordSizeLimit sizeLimit,
            long maxQueueDelayNanos) {
        this.spec = spec;
        this.kafkaSink = kafkaSink;
        this.parallelism = parallelism;
        this.uidPrefix = uidPrefix;
        this.allocatorLimit = allocatorLimit;
        this.sizeLimit = sizeLimit;
        this.maxQueueDelayNanos = maxQueueDelayNanos;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Uid of the encode operator for a given uid prefix. */
    public static String encodeUid(String uidPrefix) {
        return uidPrefix + "-encode";
    }

    /** Uid of the Kafka sink (its writer; Flink derives the committer's from it) for a uid prefix. */
    public static String kafkaSinkUid(String uidPrefix) {
        return uidPrefix + "-kafka-sink";
    }

    /**
     * Appends the encode operator and the Kafka sink to {@code batches}. Both get the sink's parallelism
     * (or the environment default) so they chain; the batches are rebalanced into the encode operator
     * only when their parallelism differs.
     */
    public DataStreamSink<PreSerializedRecord> sinkTo(DataStream<ArrowBatch> batches) {
        SingleOutputStreamOperator<PreSerializedRecord> records = WindowedSendOperator.append(batches,
                EncodeFunction.ofRecords(spec, allocatorLimit, sizeLimit, maxQueueDelayNanos),
                PreSerializedRecordTypeInfo.INSTANCE, "Columnar encode (" + spec.describe() + ")");
        DataStreamSink<PreSerializedRecord> sink = records.sinkTo(kafkaSink).name("Kafka sink: " + spec.topic());
        if (parallelism > 0) {
            records.setParallelism(parallelism);
            sink.setParallelism(parallelism);
        }
        if (uidPrefix != null) {
            records.uid(encodeUid(uidPrefix));
            sink.uid(kafkaSinkUid(uidPrefix));
        }
        return sink;
    }

    /** The stock Kafka sink this sink sends through. */
    public KafkaSink<PreSerializedRecord> kafkaSink() {
        return kafkaSink;
    }

    /** Builds a {@link ColumnarKafkaSink}; Kafka settings are forwarded to {@code KafkaSink.builder()}. */
    public static final class Builder {
        private final KafkaSinkBuilder<PreSerializedRecord> kafka = KafkaSink.builder();
        /** The producer properties given to {@link #kafka}, merged as it merges them; they set the size limit. */
        private final Properties producerProperties = new Properties();
        private RowType rowType;
        private String valueFormat;
        private Map<String, String> valueOptions = Map.of();
        private List<String> keyFields = List.of();
        private String keyFieldsPrefix = "";
        private String keyFormat;
        private Map<String, String> keyOptions = Map.of();
        private String topic;
        private int parallelism = -1;
        private String uidPrefix;
        private long allocatorLimit = DEFAULT_ALLOCATOR_LIMIT;
        private Duration maxQueueDelay = SendWindow.DEFAULT_MAX_QUEUE_DELAY;
        /** {@code KafkaSinkBuilder}'s default; the send window runs only where the writer flushes at checkpoints. */
        private DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.NONE;

        private Builder() {}

        /** The row type of the Arrow batches (their columns, in order). */
        public Builder setRowType(RowType rowType) {
            this.rowType = rowType;
            return this;
        }

        /** The row type as a Flink SQL type string, e.g. {@code ROW<id BIGINT, name STRING>}. */
        public Builder setRowType(String rowType) {
            return setRowType(RowTypes.parse(rowType));
        }

        /** Flink's format identifier for values and its options (Flink's keys without the prefix). */
        public Builder setValueFormat(String format, Map<String, String> options) {
            this.valueFormat = format;
            this.valueOptions = Map.copyOf(options);
            return this;
        }

        /** The key columns, in key order, as Flink's {@code key.fields}. Without them the key is null. */
        public Builder setKeyFields(String... fields) {
            this.keyFields = List.of(fields);
            return this;
        }

        /** Flink's {@code key.fields-prefix}: every key field carries it and the key format sees it stripped. */
        public Builder setKeyFieldsPrefix(String prefix) {
            this.keyFieldsPrefix = prefix;
            return this;
        }

        /** Flink's format identifier for keys and its options; required with key fields. */
        public Builder setKeyFormat(String format, Map<String, String> options) {
            this.keyFormat = format;
            this.keyOptions = Map.copyOf(options);
            return this;
        }

        public Builder setTopic(String topic) {
            this.topic = topic;
            return this;
        }

        public Builder setBootstrapServers(String bootstrapServers) {
            kafka.setBootstrapServers(bootstrapServers);
            return this;
        }

        public Builder setDeliveryGuarantee(DeliveryGuarantee deliveryGuarantee) {
            kafka.setDeliveryGuarantee(deliveryGuarantee);
            this.deliveryGuarantee = deliveryGuarantee;
            return this;
        }

        public Builder setTransactionalIdPrefix(String transactionalIdPrefix) {
            kafka.setTransactionalIdPrefix(transactionalIdPrefix);
            return this;
        }

        public Builder setTransactionNamingStrategy(TransactionNamingStrategy strategy) {
            kafka.setTransactionNamingStrategy(strategy);
            return this;
        }

        public Builder setKafkaProducerConfig(Properties properties) {
            kafka.setKafkaProducerConfig(properties);
            producerProperties.putAll(properties);
            return this;
        }

        public Builder setProperty(String key, String value) {
            kafka.setProperty(key, value);
            producerProperties.setProperty(key, value);
            return this;
        }

        /** Parallelism of the encode operator and the Kafka sink; default: the environment's. */
        public Builder setParallelism(int parallelism) {
            if (parallelism <= 0) {
                throw new IllegalArgumentException("parallelism must be positive, got " + parallelism);
            }
            this.parallelism = parallelism;
            return this;
        }

        /**
         * Prefix of the operator uids ({@link #encodeUid}, {@link #kafkaSinkUid}); set it so savepoints
         * stay restorable when the job graph changes.
         */
        public Builder setUidPrefix(String uidPrefix) {
            this.uidPrefix = uidPrefix;
            return this;
        }

        /** Bound in bytes of each encode subtask's Arrow allocator (batches received over the network). */
        public Builder setAllocatorLimit(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("allocator limit must be positive, got " + bytes);
            }
            this.allocatorLimit = bytes;
            return this;
        }

        /**
         * The longest time records queue in Kafka's producer beyond the link's round trip ({@link SendWindow}):
         * what an exactly-once or at-least-once checkpoint's flush waits for; default {@link
         * SendWindow#DEFAULT_MAX_QUEUE_DELAY}. {@link Duration#ZERO} leaves the backlog to Kafka's {@code
         * buffer.memory} alone, as does the delivery guarantee {@code NONE} (no flush at checkpoints).
         */
        public Builder setMaxQueueDelay(Duration delay) {
            if (delay.isNegative()) {
                throw new IllegalArgumentException("the queue delay must not be negative, got " + delay);
            }
            this.maxQueueDelay = delay;
            return this;
        }

        /**
         * Validates the settings, plans the encoders once to fail fast on bad formats or options, and
         * builds the stock {@link KafkaSink} (which validates the Kafka settings).
         */
        public ColumnarKafkaSink build() {
            require(rowType != null, "a row type is required (setRowType)");
            require(valueFormat != null, "a value format is required (setValueFormat)");
            require(topic != null && !topic.isEmpty(), "a topic is required (setTopic)");
            require(keyFields.isEmpty() || keyFormat != null, "key fields " + keyFields + " need a key format (setKeyFormat)");
            require(keyFields.isEmpty() == (keyFormat == null), "a key format needs key fields (setKeyFields)");
            int[] keyIndexes = new int[keyFields.size()];
            List<String> keyNames = new ArrayList<>(keyFields.size());
            for (int i = 0; i < keyIndexes.length; i++) {
                String field = keyFields.get(i);
                keyIndexes[i] = rowType.getFieldIndex(field);
                require(keyIndexes[i] >= 0, "key field '" + field + "' is not a column of " + rowType.asSummaryString());
                require(field.startsWith(keyFieldsPrefix),
                        "key field '" + field + "' does not start with the key fields prefix '" + keyFieldsPrefix + "'");
                keyNames.add(field.substring(keyFieldsPrefix.length()));
            }
            EncodingSpec spec = new EncodingSpec(rowType, topic, valueFormat,
                    withDefaultSubject(valueFormat, valueOptions, false), keyIndexes, keyNames, keyFormat,
                    withDefaultSubject(keyFormat, keyOptions, true));
            spec.valueEncoder();
            spec.keyEncoder();
            long queueDelayNanos = SendWindow.queueDelayNanos(maxQueueDelay.toNanos(), deliveryGuarantee);
            if (queueDelayNanos > 0) {
                kafka.setKafkaProducerConfig(SendWindowInterceptor.installedIn(producerProperties));
            }
            KafkaSink<PreSerializedRecord> kafkaSink = kafka
                    .setRecordSerializer(new PreSerializedRecordSerializationSchema(List.of(topic)))
                    .build();
            return new ColumnarKafkaSink(spec, kafkaSink, parallelism, uidPrefix, allocatorLimit,
                    RecordSizeLimit.of(producerProperties), queueDelayNanos);
        }

        /** As Flink's Kafka connector: {@code avro-confluent} without a subject uses {@code <topic>-value/-key}. */
        private Map<String, String> withDefaultSubject(String format, Map<String, String> options, boolean isKey) {
            return "avro-confluent".equals(format)
                    ? AvroConfluentFormatOptions.withDefaultSubject(options, topic, isKey)
                    : options;
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
