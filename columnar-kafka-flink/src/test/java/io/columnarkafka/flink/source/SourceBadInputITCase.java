package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.client.decode.KafkaDecodeException;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source side of the bad-input catalogue (docs/faults.md): corrupt JSON records, with and without
 * {@code ignore-parse-errors}, and records larger than the consumer's fetch sizes and than the source's batch byte
 * cap. The expected rows are Flink's own JSON deserializer's on the same bytes ({@link FlinkJsonDecodeOracle}); every
 * Arrow allocation is freed at the end.
 */
class SourceBadInputITCase {
    private static final String ROW_TYPE = "ROW<id BIGINT, name STRING>";
    private static final RowType ROWS = RowTypes.parse(ROW_TYPE);

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(1);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void aCorruptRecordFailsTheJobNamingTopicPartitionOffsetAndField() throws Exception {
        String topic = "corrupt-json-fails";
        List<byte[]> values = goodValues(60);
        values.set(23, utf8("{\"id\":\"twenty-three\",\"name\":\"n-23\"}"));
        produce(topic, values);

        assertThatThrownBy(() -> read(topic, Map.of(), null))
                .satisfies(e -> {
                    System.out.println("corrupt record: " + ExceptionUtils.findThrowable(e,
                            KafkaDecodeException.class).map(Throwable::getMessage).orElse(e.toString()));
                    assertThat(ExceptionUtils.findThrowable(e, KafkaDecodeException.class))
                            .hasValueSatisfying(decode -> {
                                assertThat(decode.getMessage()).contains(
                                        "the value of the Kafka record at topic '" + topic + "', partition 0,"
                                                + " offset 23, field 'id'");
                                assertThat(decode.offset()).isEqualTo(23);
                            });
                });
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void withIgnoreParseErrorsCorruptRecordsAreSkippedExactlyAsFlinkSkipsThem() throws Exception {
        String topic = "corrupt-json-skipped";
        List<byte[]> values = goodValues(60);
        values.set(7, utf8("{\"id\":7,\"name\":")); // truncated
        values.set(23, utf8("{\"id\":\"twenty-three\",\"name\":\"n-23\"}")); // a string for a BIGINT
        values.set(41, new byte[] {(byte) 0xFF, (byte) 0xFE, 'x'}); // not JSON at all
        values.set(42, utf8("[1, 2]")); // JSON, but not an object
        produce(topic, values);
        Map<String, String> options = Map.of("ignore-parse-errors", "true");

        List<String> expected = flinkRows(values, options);
        List<String> columnar = read(topic, options, null);

        assertThat(expected).as("Flink skipped or nulled the corrupt records").hasSizeLessThan(60)
                .hasSizeGreaterThanOrEqualTo(56);
        assertThat(columnar).isEqualTo(expected);
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void recordsLargerThanTheFetchSizesAndTheBatchCapAreStillDecoded() throws Exception {
        String topic = "larger-than-fetch";
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            values.add(utf8("{\"id\":" + i + ",\"name\":\"" + Character.toString('a' + i).repeat(100_000 + i)
                    + "\"}"));
        }
        produce(topic, values);
        // Each record is ~100 KiB; the consumer asks for at most 1 KiB per partition and per fetch, and a batch
        // may hold at most 16 KiB of record bytes: Kafka still returns a first record larger than the fetch size,
        // and a record larger than the cap makes a batch of its own.
        List<String> columnar = read(topic, Map.of(), source -> source
                .setProperty("max.partition.fetch.bytes", "1024")
                .setProperty("fetch.max.bytes", "1024")
                .setMaxBatchBytes(16 << 10));

        assertThat(columnar).hasSize(20).isEqualTo(flinkRows(values, Map.of()));
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    private static List<byte[]> goodValues(int count) {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(utf8("{\"id\":" + i + ",\"name\":\"n-" + i + "\"}"));
        }
        return values;
    }

    private static void produce(String topic, List<byte[]> values) {
        KAFKA.broker().createTopic(topic, 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        values.forEach(v -> records.add(new ProducerRecord<>(topic, 0, null, v)));
        SourceTopics.produce(KAFKA.broker(), records);
    }

    /** Customizes the source under test. */
    private interface SourceSettings {
        ColumnarKafkaSource.Builder apply(ColumnarKafkaSource.Builder builder);
    }

    /** Reads the whole topic through the columnar source with the JSON options; rows as {@code id|name}. */
    private static List<String> read(String topic, Map<String, String> jsonOptions, SourceSettings settings)
            throws Exception {
        ColumnarKafkaSource.Builder builder = ColumnarKafkaSource.builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setRowType(ROW_TYPE)
                .setValueFormat("json", jsonOptions);
        if (settings != null) {
            builder = settings.apply(builder);
        }
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(1);
        CloseableIterator<String> rows = env.fromSource(builder.build(), WatermarkStrategy.noWatermarks(), topic)
                .flatMap(new IdNames())
                .collectAsync();
        JobClient job = env.executeAsync(topic);
        List<String> out = new ArrayList<>();
        try (rows) {
            rows.forEachRemaining(out::add);
        }
        job.getJobExecutionResult().get(2, TimeUnit.MINUTES);
        return out;
    }

    /** Flink's JSON deserializer on each value, as the Kafka connector calls it; rows as {@code id|name}. */
    private static List<String> flinkRows(List<byte[]> values, Map<String, String> options) {
        FlinkJsonDecodeOracle flink = FlinkJsonDecodeOracle.of(ROWS, options);
        List<String> rows = new ArrayList<>();
        for (byte[] value : values) {
            FlinkJsonDecodeOracle.Outcome outcome = flink.deserialize(value);
            assertThat(outcome.rejected()).as("Flink rejects %s", new String(value, StandardCharsets.UTF_8))
                    .isFalse();
            for (RowData row : outcome.rows()) {
                if (row != null) {
                    rows.add((row.isNullAt(0) ? "<null>" : Long.toString(row.getLong(0))) + "|"
                            + (row.isNullAt(1) ? "<null>" : row.getString(1).toString()));
                }
            }
        }
        return rows;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Each row of a batch as {@code id|name}. */
    private static final class IdNames implements FlatMapFunction<ArrowBatch, String> {
        @Override
        public void flatMap(ArrowBatch batch, Collector<String> out) {
            try (batch) {
                VectorSchemaRoot root = batch.open(null);
                BigIntVector id = (BigIntVector) root.getVector("id");
                VarCharVector name = (VarCharVector) root.getVector("name");
                for (int i = 0; i < root.getRowCount(); i++) {
                    out.collect((id.isNull(i) ? "<null>" : Long.toString(id.get(i))) + "|"
                            + (name.isNull(i) ? "<null>" : new String(name.get(i), StandardCharsets.UTF_8)));
                }
            }
        }
    }
}
