package io.columnarkafka.cli;

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
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka to Kafka job of the demo and of {@code bin/bench-pipeline}: every bid of the input topic, read
 * from its start to the end offsets it had when the job started, written to the output topic as Flink JSON.
 * Columnar: {@link ColumnarKafkaSource} to {@link ColumnarKafkaSink}, Arrow batches all the way. Stock:
 * Flink's {@code KafkaSource} with the json format's default deserializer to Flink's {@code KafkaSink} with
 * its serializer, on RowData. Floor ({@code bin/bench-pipeline}'s no-codec baseline): the same stock source
 * and sink passing each value's bytes through untouched. All get the same Kafka settings.
 *
 * @param transactionalIdPrefix also the consumer group id
 * @param transactionTimeoutMs the producers' {@code transaction.timeout.ms}
 * @param maxBatchRows the columnar source's cap on the rows of one Arrow batch
 */
public record KafkaToKafkaJob(String servers, String input, String output, String transactionalIdPrefix,
        DeliveryGuarantee guarantee, long transactionTimeoutMs, int maxBatchRows) {

    /** Adds the columnar job to {@code env}. */
    public void buildColumnar(StreamExecutionEnvironment env) {
        ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
                .setBootstrapServers(servers)
                .setTopics(input)
                .setGroupId(transactionalIdPrefix)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setRowType(BidGenerator.BID_TYPE)
                .setValueFormat("json", Map.of())
                .setMaxBatchRows(maxBatchRows)
                .build();
        ColumnarKafkaSink.builder()
                .setRowType(BidGenerator.BID_TYPE)
                .setValueFormat("json", Map.of())
                .setTopic(output)
                .setBootstrapServers(servers)
                .setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .setProperty("transaction.timeout.ms", Long.toString(transactionTimeoutMs))
                .build()
                .sinkTo(env.fromSource(source, WatermarkStrategy.noWatermarks(), "ColumnarKafkaSource (json)"));
    }

    /** Adds the stock Flink job to {@code env}. */
    public void buildStock(StreamExecutionEnvironment env) {
        KafkaSource<RowData> source = this.<RowData>stockSource()
                // Flink 2.2's json format default (decode.json-parser.enabled = true), no options.
                .setValueOnlyDeserializer(new JsonParserRowDataDeserializationSchema(
                        BidGenerator.BID_TYPE, InternalTypeInfo.of(BidGenerator.BID_TYPE), false, false,
                        TimestampFormat.SQL))
                .build();
        KafkaSink<RowData> sink = stockSink(KafkaRecordSerializationSchema.<RowData>builder()
                .setTopic(output)
                .setValueSerializationSchema(new JsonRowDataSerializationSchema(BidGenerator.BID_TYPE,
                        TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false))
                .build());
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "KafkaSource (Flink JSON)")
                .sinkTo(sink)
                .name("KafkaSink (Flink JSON)");
    }

    /**
     * Adds the no-codec floor to {@code env}: the stock job with each value's bytes, as the consumer hands
     * them over, written as they are (Kafka's own byte-array deserializer and serializer, both identities on
     * a {@code byte[]}). What it costs is what Kafka's clients and Flink's runtime cost any codec in this
     * job. Turns on object reuse, so that the chained hand-over to the sink does not copy each value: the
     * columnar job's hand-overs copy nothing either (immutable types); stock copies each RowData.
     */
    public void buildFloor(StreamExecutionEnvironment env) {
        env.getConfig().enableObjectReuse();
        KafkaSource<byte[]> source = this.<byte[]>stockSource()
                .setDeserializer(KafkaRecordDeserializationSchema.valueOnly(ByteArrayDeserializer.class))
                .build();
        KafkaSink<byte[]> sink = stockSink(KafkaRecordSerializationSchema.<byte[]>builder()
                .setTopic(output)
                .setKafkaValueSerializer(ByteArraySerializer.class)
                .build());
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "KafkaSource (value bytes)")
                .sinkTo(sink)
                .name("KafkaSink (value bytes)");
    }

    private <T> KafkaSourceBuilder<T> stockSource() {
        return KafkaSource.<T>builder()
                .setBootstrapServers(servers)
                .setTopics(input)
                .setGroupId(transactionalIdPrefix)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest());
    }

    private <T> KafkaSink<T> stockSink(KafkaRecordSerializationSchema<T> serializer) {
        return KafkaSink.<T>builder()
                .setBootstrapServers(servers)
                .setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .setProperty("transaction.timeout.ms", Long.toString(transactionTimeoutMs))
                .setRecordSerializer(serializer)
                .build();
    }
}
