package io.columnarkafka.bench.pipeline;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.source.ColumnarKafkaSource;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The benchmark's job: every bid of the input topic, read from its start to its end offsets, written
 * EXACTLY_ONCE to the output topic as Flink JSON; the same Kafka settings for both variants.
 */
final class PipelineJob {
    private PipelineJob() {}

    static void build(StreamExecutionEnvironment env, PipelineVariant variant, String servers, String input,
            String output, String transactionalIdPrefix) {
        if (variant == PipelineVariant.COLUMNAR) {
            ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
                    .setBootstrapServers(servers)
                    .setTopics(input)
                    .setGroupId(transactionalIdPrefix)
                    .setStartingOffsets(OffsetsInitializer.earliest())
                    .setBounded(OffsetsInitializer.latest())
                    .setRowType(BidGenerator.BID_TYPE)
                    .setValueFormat("json", Map.of())
                    .build();
            ColumnarKafkaSink.builder()
                    .setRowType(BidGenerator.BID_TYPE)
                    .setValueFormat("json", Map.of())
                    .setTopic(output)
                    .setBootstrapServers(servers)
                    .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                    .setTransactionalIdPrefix(transactionalIdPrefix)
                    .setProperty("transaction.timeout.ms", "600000")
                    .build()
                    .sinkTo(env.fromSource(source, WatermarkStrategy.noWatermarks(), "columnar source"));
        } else {
            KafkaSource<RowData> source = KafkaSource.<RowData>builder()
                    .setBootstrapServers(servers)
                    .setTopics(input)
                    .setGroupId(transactionalIdPrefix)
                    .setStartingOffsets(OffsetsInitializer.earliest())
                    .setBounded(OffsetsInitializer.latest())
                    // Flink 2.2's json format default (decode.json-parser.enabled = true), no options.
                    .setValueOnlyDeserializer(new JsonParserRowDataDeserializationSchema(
                            BidGenerator.BID_TYPE, InternalTypeInfo.of(BidGenerator.BID_TYPE), false, false,
                            TimestampFormat.SQL))
                    .build();
            KafkaSink<RowData> sink = KafkaSink.<RowData>builder()
                    .setBootstrapServers(servers)
                    .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                    .setTransactionalIdPrefix(transactionalIdPrefix)
                    .setProperty("transaction.timeout.ms", "600000")
                    .setRecordSerializer(KafkaRecordSerializationSchema.<RowData>builder()
                            .setTopic(output)
                            .setValueSerializationSchema(new JsonRowDataSerializationSchema(BidGenerator.BID_TYPE,
                                    TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false))
                            .build())
                    .build();
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "stock source").sinkTo(sink);
        }
    }
}
