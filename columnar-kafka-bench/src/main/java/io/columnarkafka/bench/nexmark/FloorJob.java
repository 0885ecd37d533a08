package io.columnarkafka.bench.nexmark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The floor cell's job ({@link Variant#FLOOR}): everything a stateless query's stock job does except decoding,
 * evaluating and encoding. Flink's {@code KafkaSource} reads the same input topic, bounded the same way, with the
 * source table's consumer settings; for each record it looks up, by partition and offset, the value stock writes
 * for it ({@link FloorTable}, loaded into this JVM before the job is submitted) and emits that, or nothing; Flink's
 * {@code KafkaSink} writes it EXACTLY_ONCE with the result table's producer settings, no key, no timestamp and
 * Kafka's default partitioner, as the SQL sink does. Same parallelism and checkpoints as the query's cell. So its
 * time and CPU are what Kafka's clients and Flink's runtime cost for this output, a lower bound for any codec and
 * calc: object reuse is on (the values are never copied between the chained operators).
 */
final class FloorJob {
    /** The table of the cell running in this JVM; the job's deserializer reads it (a MiniCluster, same JVM). */
    private static volatile FloorTable table;

    private FloorJob() {}

    /** Loads the query's table (outside the timed job), then returns the job to submit. */
    static StreamGraph streamGraph(CellSpec spec, StreamExecutionEnvironment env, Properties result)
            throws IOException {
        if (spec.query().stateful || spec.fixedRate()) {
            throw new IllegalArgumentException("the floor runs stateless queries over a filled topic only");
        }
        table = FloorTable.read(FloorTable.file(Path.of(spec.resultFile()).getParent(), spec.query()));
        env.setParallelism(spec.parallelism());
        env.enableCheckpointing(spec.checkpointIntervalMs(), CheckpointingMode.EXACTLY_ONCE);
        env.getConfig().enableObjectReuse();
        Properties source = new Properties();
        kafkaProperties(sourceTableOptions(spec)).forEach(source::setProperty);
        KafkaSource<byte[]> kafkaSource = KafkaSource.<byte[]>builder()
                .setBootstrapServers(spec.bootstrapServers())
                .setTopics(spec.inputTopic())
                .setGroupId(spec.runId())
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setProperties(source)
                .setDeserializer(new StockOutputLookup())
                .build();
        Properties producer = new Properties();
        Map<String, String> sinkOptions = new HashMap<>();
        sinkOptions.put("properties.transaction.timeout.ms", NexmarkSql.TRANSACTION_TIMEOUT_MS);
        spec.clients().addSinkOptions(sinkOptions);
        kafkaProperties(sinkOptions).forEach(producer::setProperty);
        KafkaSink<byte[]> sink = KafkaSink.<byte[]>builder()
                .setBootstrapServers(spec.bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(spec.runId())
                .setKafkaProducerConfig(producer)
                .setRecordSerializer(new ValueOnly(spec.outputTopic()))
                .build();
        env.fromSource(kafkaSource, WatermarkStrategy.noWatermarks(), "floor source " + spec.query().id())
                .sinkTo(sink).name("floor sink " + spec.query().id());
        result.setProperty("sinkPath", "floor: stock's output values looked up per input offset ("
                + table.kept() + " of the input's records keep one)");
        result.setProperty("sourceConnector", "KafkaSource (value bytes)");
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName("nexmark-" + spec.label());
        return graph;
    }

    /** The Kafka client settings the source table passes through ({@code properties.*}, e.g. max.poll.records). */
    private static Map<String, String> sourceTableOptions(CellSpec spec) {
        Map<String, String> options = new HashMap<>();
        spec.clients().addSourceOptions(spec.variant().source(), options);
        return options;
    }

    /** The {@code properties.*} table options as Kafka client properties. */
    static Map<String, String> kafkaProperties(Map<String, String> tableOptions) {
        Map<String, String> properties = new HashMap<>();
        tableOptions.forEach((key, value) -> {
            if (key.startsWith("properties.")) {
                properties.put(key.substring("properties.".length()), value);
            }
        });
        return properties;
    }

    /** Emits, for each input record, the value stock writes for it, or nothing. */
    static final class StockOutputLookup implements KafkaRecordDeserializationSchema<byte[]> {
        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<byte[]> out) {
            byte[] value = table.value(record.partition(), record.offset());
            if (value != null) {
                out.collect(value);
            }
        }

        @Override
        public TypeInformation<byte[]> getProducedType() {
            return PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
        }
    }

    /** The SQL sink's record: the value only (no key, no timestamp, no partition: Kafka's default partitioner). */
    static final class ValueOnly implements KafkaRecordSerializationSchema<byte[]> {
        private final String topic;

        ValueOnly(String topic) {
            this.topic = topic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(byte[] value, KafkaSinkContext context, Long timestamp) {
            return new ProducerRecord<>(topic, null, null, null, value);
        }
    }
}
