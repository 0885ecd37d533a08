package io.columnarkafka.flink.table;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.sink.SendWindowInterceptor;
import io.columnarkafka.flink.sink.WindowedSendOperator;
import java.util.Optional;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.LegacySourceTransformation;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Builds the runtime of an admitted sink: the encode operator ({@link RowBatchEncodeOperator}), one element
 * per encoded batch, then {@link SplitEncodedBatch} chained in front of Flink's stock {@link KafkaSink}
 * (records alone, or with their rows for a custom partitioner: {@link EncodedRecords}), which is
 * configured exactly as Flink's Kafka table sink configures its own (delivery guarantee, bootstrap servers, every {@code properties.*} entry,
 * transactional-id prefix, transaction naming strategy, {@code sink.parallelism}).
 */
final class ColumnarSinkTranslator {
    /**
     * The uid name of the {@code KafkaSink}'s writer (Flink derives its committer's from it): Flink's own for its sink
     * node's writer ({@code CommonExecSink.SINK_TRANSFORMATION}), so with generated uids a savepoint's writer and
     * committer state carries over between Flink's {@code kafka}, an admitted {@code kafka-columnar} sink and a
     * fallback one.
     */
    static final String WRITER_UID = "sink";
    /**
     * The uid name Flink's Kafka table sink gives its writer with {@code sink.buffer-flush.*} on an upsert table
     * ({@code KafkaDynamicSink}'s {@code DataStreamSinkProvider} around {@code ReducingUpsertSink}), in place of its
     * sink node's.
     */
    static final String REDUCING_WRITER_UID = "upsert-kafka";

    private ColumnarSinkTranslator() {}

    /**
     * The provider Flink's sink node hands its rows to. The encode plan and the {@code KafkaSink} are built here, when
     * the planner asks for the provider, as Flink's Kafka table sink builds its {@code KafkaSink}: a bad option fails
     * at the same step of the translation as with Flink's sink.
     */
    static DynamicTableSink.SinkRuntimeProvider provider(
            KafkaSinkShape shape, ColumnarOptions.Settings batching, String description) {
        SinkRuntime<?, ?> runtime = SinkRuntime.of(shape, batching, description);
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
                return runtime.write(rows, null, context);
            }

            @Override
            public Optional<Integer> getParallelism() {
                return Optional.ofNullable(reportedParallelism(shape));
            }
        };
    }

    /**
     * The parallelism the provider reports to Flink's sink node, as Flink's Kafka table sink's does: {@code
     * sink.parallelism}, or null for the input's. With {@code sink.buffer-flush.*} on an upsert table, Flink's provider
     * (a {@code DataStreamSinkProvider} around {@code ReducingUpsertSink}) reports none and sets {@code
     * sink.parallelism} on its sink itself, so Flink's sink node decides its keyed shuffle as for a sink at the
     * input's parallelism (none under {@code AUTO}), and the rows reach the sink's subtasks round-robin; so does this
     * provider's.
     */
    static Integer reportedParallelism(KafkaSinkShape shape) {
        return EncodePlan.ReducingBuffer.of(shape) != null ? null : shape.parallelism();
    }

    /** True for a partitioner that may read the consumed row: any but Flink's {@code fixed}. */
    static boolean readsRows(KafkaPartitioner<RowData> partitioner) {
        return partitioner != null && partitioner.getClass() != FlinkFixedPartitioner.class;
    }

    /**
     * The runtime of an admitted sink fed rows the planner stage substituted for Flink's sink node: the encode
     * operator runs {@code head} (Flink's Calc before the sink where taken in, its constraint enforcement and
     * rowtime step) on each row it is handed.
     */
    static DataStreamSink<?> rowSink(KafkaSinkShape shape, ColumnarOptions.Settings batching, String description,
            DataStream<RowData> rows, SinkRowHead head, ProviderContext context) {
        return SinkRuntime.of(shape, batching, description).write(rows, head, context);
    }

    /**
     * The runtime of an admitted upsert sink with {@code sink.buffer-flush.*} fed the planner stage's Arrow batches of
     * {@code consumedType} (and, with {@code rowKinds}, each row's kind after them): the batches' rows go into Flink's
     * reducing buffer in the encode operator ({@link ArrowReducingEncodeOperator}, named {@code name}, running Flink's
     * NOT NULL enforcer {@code notNull} where not null), whose flushes are encoded and written as the row sink's.
     */
    static DataStreamSink<?> reducingArrowSink(KafkaSinkShape shape, ColumnarOptions.Settings batching,
            String description, DataStream<ArrowBatch> batches, String name, RowType consumedType, boolean rowKinds,
            ArrowNotNullEnforcer notNull, ProviderContext context) {
        return SinkRuntime.of(shape, batching, description).reduce(batches, name, consumedType, rowKinds, notNull,
                context);
    }

    /**
     * What an admitted sink's rows go through: the encode plan, the elements between the operators (records alone,
     * or with their rows for a partitioner that reads them) and the {@code KafkaSink} that writes them.
     */
    private record SinkRuntime<B, R>(KafkaSinkShape shape, EncodePlan plan, EncodedRecords<B, R> elements,
            KafkaSink<R> kafkaSink, String description) {

        static SinkRuntime<?, ?> of(KafkaSinkShape shape, ColumnarOptions.Settings batching, String description) {
            EncodePlan plan = EncodePlan.of(shape, batching, description);
            return readsRows(shape.partitioner())
                    ? of(shape, plan, EncodedRecords.WITH_ROWS, description)
                    : of(shape, plan, EncodedRecords.RECORDS, description);
        }

        private static <B, R> SinkRuntime<B, R> of(KafkaSinkShape shape, EncodePlan plan,
                EncodedRecords<B, R> elements, String description) {
            return new SinkRuntime<>(shape, plan, elements,
                    ColumnarSinkTranslator.kafkaSink(shape, elements, plan.sendWindowNanos()),
                    description);
        }

        /**
         * The encode operator ({@code head} null: the rows as Flink's sink node hands them), the splitter and the
         * writer, each at the sink's parallelism.
         */
        DataStreamSink<?> write(DataStream<RowData> rows, SinkRowHead head, ProviderContext context) {
            // The rows the sink consumes: the head's Calc's where it runs one.
            TypeInformation<RowData> consumed = head == null ? rows.getType() : head.consumedType(rows.getType());
            return write(rows, consumed, "ColumnarEncode[" + description
                            + (head == null || head.isEmpty() ? "" : "; head: " + head.describe()) + "]",
                    new RowDataEncodeOperator<>(plan, elements,
                            rowCopier(rows, consumed, head != null && head.reusesRows()),
                            RecordSizeLimit.of(shape.properties()), head),
                    context);
        }

        /** The Arrow batches' rows through the reducing buffer ({@link #reducingArrowSink}), splitter and writer. */
        DataStreamSink<?> reduce(DataStream<ArrowBatch> batches, String name, RowType consumedType, boolean rowKinds,
                ArrowNotNullEnforcer notNull, ProviderContext context) {
            return write(batches, InternalTypeInfo.of(consumedType), name,
                    new ArrowReducingEncodeOperator<>(plan, elements, RecordSizeLimit.of(shape.properties()),
                            consumedType, rowKinds, notNull),
                    context);
        }

        /**
         * The encode operator {@code encoder} (named {@code name}) on {@code input}, the splitter and the writer, each
         * at the sink's parallelism; {@code consumed} is the type of the rows the sink consumes.
         */
        private <I> DataStreamSink<?> write(DataStream<I> input, TypeInformation<RowData> consumed, String name,
                RowBatchEncodeOperator<I, B> encoder, ProviderContext context) {
            // Like the planner does for Flink's sink: without sink.parallelism, the input's.
            Integer parallelism = shape.parallelism();
            int sinkParallelism = parallelism != null ? parallelism : input.getParallelism();
            SingleOutputStreamOperator<B> batches = input.transform(name, elements.batchType(consumed), encoder)
                    .setParallelism(sinkParallelism);
            context.generateUid("columnar-encode").ifPresent(batches::uid);
            // Same parallelism and a forward edge: the splitter chains with the writer.
            SingleOutputStreamOperator<R> records = WindowedSendOperator.append(batches,
                            new SplitEncodedBatch<>(elements, plan.sendWindowNanos()), elements.recordType(consumed),
                            "SplitEncodedBatch[" + description + "]")
                    .setParallelism(sinkParallelism);
            if (sinkParallelism == input.getParallelism() && chainedToLegacySource(input.getTransformation())) {
                // The writer never joins this chain: the batch, not each record, crosses the channel.
                records.startNewChain();
            }
            context.generateUid("columnar-split").ifPresent(records::uid);
            DataStreamSink<R> end = records.sinkTo(kafkaSink)
                    .name("KafkaSink[" + description + "]")
                    .setParallelism(sinkParallelism);
            context.generateUid(EncodePlan.ReducingBuffer.of(shape) != null ? REDUCING_WRITER_UID : WRITER_UID)
                    .ifPresent(end::uid);
            return end;
        }
    }

    /**
     * True if {@code input} runs in the chain of a legacy {@code SourceFunction} source (e.g. {@code
     * datagen}): its operator, or operators chained behind one. Flink never chains a yielding operator such
     * as {@code KafkaSink}'s writer into such a chain, so the encode operator there reaches the writer over
     * a network channel. Elsewhere (a FLIP-27 source such as Kafka's) the encode operator, the splitter and
     * the writer form one chain and nothing is serialized.
     */
    static boolean chainedToLegacySource(Transformation<?> input) {
        Transformation<?> t = input;
        while (t instanceof OneInputTransformation<?, ?> operator
                && operator.getOperatorFactory().getChainingStrategy() == ChainingStrategy.ALWAYS
                && operator.getInputs().get(0).getParallelism() == operator.getParallelism()) {
            t = operator.getInputs().get(0);
        }
        return t instanceof LegacySourceTransformation && t.getParallelism() == input.getParallelism();
    }

    /**
     * The {@code KafkaSink} as Flink's table sink configures it; with a send window ({@code maxQueueDelayNanos}
     * positive) its producers also carry the {@link SendWindowInterceptor} that feeds it.
     */
    static <R> KafkaSink<R> kafkaSink(KafkaSinkShape shape, EncodedRecords<?, R> elements, long maxQueueDelayNanos) {
        KafkaSinkBuilder<R> builder = KafkaSink.builder();
        if (shape.transactionalIdPrefix() != null) {
            builder.setTransactionalIdPrefix(shape.transactionalIdPrefix());
        }
        return builder
                .setDeliveryGuarantee(shape.deliveryGuarantee())
                .setBootstrapServers(shape.properties().get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG).toString())
                .setKafkaProducerConfig(maxQueueDelayNanos > 0
                        ? SendWindowInterceptor.installedIn(shape.properties()) : shape.properties())
                .setRecordSerializer(new TableRecordSerializationSchema<>(
                        shape.topics(), shape.topicPattern(), shape.partitioner(), elements))
                .setTransactionNamingStrategy(shape.transactionNamingStrategy())
                .build();
    }

    /**
     * The serializer that copies rows (of type {@code consumed}) the encode operator keeps past a call when the job
     * reuses objects (Flink's table sink decides the same way for its reducing upsert buffer) or {@code headReuses}
     * (the head's Calc refills its output row, where Flink's chained hop would have copied it), or null.
     */
    private static TypeSerializer<RowData> rowCopier(DataStream<RowData> rows, TypeInformation<RowData> consumed,
            boolean headReuses) {
        ExecutionConfig config = rows.getExecutionConfig();
        return config.isObjectReuseEnabled() || headReuses
                ? consumed.createSerializer(config.getSerializerConfig()) : null;
    }
}
