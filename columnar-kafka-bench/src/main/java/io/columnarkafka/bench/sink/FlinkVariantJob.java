package io.columnarkafka.bench.sink;

import io.columnarkafka.cli.BidBatches;
import io.columnarkafka.cli.BidRows;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The job of variants (a), (b) and (c): the same batch-index source, one operator turning a batch index
 * into that batch's rows (from a per-subtask pool, or generated), and a Kafka sink, all at the run's parallelism so everything chains into one
 * task per subtask. Only the row form and the sink differ.
 */
final class FlinkVariantJob {
    private FlinkVariantJob() {}

    static void build(StreamExecutionEnvironment env, RunSpec spec) {
        BatchRange range = new BatchRange(spec.rows(), spec.batchSize());
        DataGeneratorSource<Long> indexes =
                new DataGeneratorSource<>(index -> index, range.count(), RateLimiterStrategy.noOp(), Types.LONG);
        DataStream<Long> batches = env.fromSource(indexes, WatermarkStrategy.noWatermarks(), "batch indexes")
                .uid("bench-batch-indexes");
        switch (spec.variant()) {
            case STOCK_JSON -> batches
                    .flatMap(spec.pooledInput()
                                    ? new PooledBidRows(range)
                                    : new BidRows(spec.rows(), spec.batchSize(), RunSpec.SEED),
                            InternalTypeInfo.of(BidGenerator.BID_TYPE))
                    .uid("bench-rows").name("Nexmark bids as RowData")
                    .sinkTo(stockSink(spec, KafkaRecordSerializationSchema.<RowData>builder()
                            .setTopic(spec.topic())
                            .setValueSerializationSchema(BidJson.flinkSerializer())
                            .build()))
                    .uid("bench-kafka-sink").name("Kafka sink (Flink JSON)");
            case COLUMNAR -> {
                DataStream<ArrowBatch> arrow = batches
                        .flatMap(spec.pooledInput()
                                        ? new PooledBidBatches(range)
                                        : new BidBatches(spec.rows(), spec.batchSize(), RunSpec.SEED),
                                ArrowBatchTypeInfo.INSTANCE)
                        .uid("bench-arrow").name("Nexmark bids as Arrow batches");
                ColumnarKafkaSink.builder()
                        .setRowType(BidGenerator.BID_TYPE)
                        .setValueFormat("json", Map.of())
                        .setTopic(spec.topic())
                        .setBootstrapServers(spec.bootstrapServers())
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setTransactionalIdPrefix(spec.topic())
                        .setTransactionNamingStrategy(spec.transactionNaming())
                        .setKafkaProducerConfig(ProducerSettings.of(spec))
                        .setUidPrefix("bench")
                        .build()
                        .sinkTo(arrow);
            }
            case PREBUILT_BYTES -> batches
                    .flatMap(new PrebuiltJson(range), PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                    .uid("bench-prebuilt").name("pre-built Nexmark bid JSON")
                    .sinkTo(stockSink(spec, KafkaRecordSerializationSchema.<byte[]>builder()
                            .setTopic(spec.topic())
                            .setValueSerializationSchema(new PassThroughSchema())
                            .build()))
                    .uid("bench-kafka-sink").name("Kafka sink (pre-built bytes)");
            case BARE_PRODUCER -> throw new IllegalArgumentException("variant (d) is not a Flink job");
        }
    }

    private static <T> KafkaSink<T> stockSink(RunSpec spec, KafkaRecordSerializationSchema<T> serializer) {
        return KafkaSink.<T>builder()
                .setBootstrapServers(spec.bootstrapServers())
                .setRecordSerializer(serializer)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(spec.topic())
                .setTransactionNamingStrategy(spec.transactionNaming())
                .setKafkaProducerConfig(ProducerSettings.of(spec))
                .build();
    }
}
