package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.KafkaDecodeException;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.source.reader.BatchTimeCap;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.RowTypes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.raw.RawFormatDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The source on a real broker and a real MiniCluster, bounded: the rows equal what Flink's own {@code
 * KafkaSource} and deserializers read from the same topic, partition by partition in offset order; bad
 * records fail the job naming their topic, partition and offset; nothing stays allocated.
 */
class ColumnarKafkaSourceITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final String KEYED_ROW_TYPE = "ROW<part STRING, v STRING>";
    private static final int PARTITIONS = 3;

    /** Values with nulls (tombstones), empty, non-ASCII and non-BMP strings; keys name the partition. */
    private static List<ProducerRecord<byte[], byte[]>> keyedRecords(String topic, int perPartition) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < perPartition; i++) {
            for (int p = 0; p < PARTITIONS; p++) {
                String value = i % 17 == 4 ? null : i % 13 == 2 ? "" : "v" + i + (i % 5 == 0 ? " \u00fc\u20ac\uD83D\uDE00" : "");
                records.add(new ProducerRecord<>(topic, p, utf8("p" + p), value == null ? null : utf8(value)));
            }
        }
        return records;
    }

    /**
     * The readers decode views of the fetched bytes in place: of the fetch response itself for uncompressed
     * batches, of a buffer per decompressed record for compressed ones; both must give Flink's rows.
     */
    @ParameterizedTest(name = "compression {0}")
    @ValueSource(strings = {"none", "gzip"})
    void boundedReadEqualsFlinksKafkaSourcePartitionByPartition(String compression) throws Exception {
        String topic = "bounded-keyed-" + compression;
        KAFKA.broker().createTopic(topic, PARTITIONS);
        int perPartition = 700;
        List<ProducerRecord<byte[], byte[]>> records = keyedRecords(topic, perPartition);
        SourceTopics.produce(KAFKA.broker(), records, compression);

        ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(topic)
                .setGroupId(topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setRowType(KEYED_ROW_TYPE)
                .setKeyFields("part")
                .setKeyFormat("raw", Map.of())
                .setValueFieldsInclude(DecodingSpec.ValueFieldsInclude.EXCEPT_KEY)
                .setValueFormat("raw", Map.of())
                .setMaxBatchRows(100)
                .build();
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(2);
        CloseableIterator<String> collected = env.fromSource(source, WatermarkStrategy.noWatermarks(), "columnar source")
                .flatMap(new KeyedRows(100))
                .collectAsync();
        JobClient job = env.executeAsync("bounded read");
        Map<String, List<String>> columnar = byPartition(collected);
        job.getJobExecutionResult().get();

        KafkaSource<String> stock = KafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(topic)
                .setGroupId(topic + "-stock")
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new FlinkRawKeyValue(RowTypes.parse(KEYED_ROW_TYPE)))
                .build();
        Map<String, List<String>> flink = byPartition(
                env.fromSource(stock, WatermarkStrategy.noWatermarks(), "stock").executeAndCollect());

        assertThat(flink.values()).allSatisfy(rows -> assertThat(rows).hasSize(perPartition));
        assertThat(columnar).isEqualTo(flink);
        Map<String, Metric> metrics = REPORTER.findMetrics(job.getJobID(), "Source: columnar source");
        long recordBytes = records.stream()
                .mapToLong(r -> r.key().length + (r.value() == null ? 0 : r.value().length)).sum();
        assertThat(counter(metrics, DecodeMetrics.ROWS)).isEqualTo(records.size());
        assertThat(counter(metrics, DecodeMetrics.SKIPPED_RECORDS)).isZero();
        assertThat(counter(metrics, DecodeMetrics.BYTES)).isEqualTo(recordBytes);
        assertThat(counter(metrics, DecodeMetrics.BATCHES)).isGreaterThanOrEqualTo(records.size() / 100);
        assertThat(counter(metrics, DecodeMetrics.DECODE_TIME_NANOS)).isPositive();
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void aMalformedRecordFailsTheJobNamingItsTopicPartitionAndOffset() throws Exception {
        String topic = "malformed-bigint";
        KAFKA.broker().createTopic(topic, 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long i = 0; i < 50; i++) {
            byte[] value = i == 37 ? new byte[] {1, 2, 3} : ByteBuffer.allocate(8).putLong(i).array();
            records.add(new ProducerRecord<>(topic, 0, null, value));
        }
        SourceTopics.produce(KAFKA.broker(), records);
        ColumnarKafkaSource<ArrowBatch> source = ColumnarKafkaSource.builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setRowType("ROW<n BIGINT>")
                .setValueFormat("raw", Map.of("endianness", "big-endian"))
                .build();
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "malformed")
                .flatMap(new LongValues())
                .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());

        assertThatThrownBy(() -> env.execute("malformed"))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KafkaDecodeException.class))
                        .hasValueSatisfying(decode -> {
                            assertThat(decode.topic()).isEqualTo(topic);
                            assertThat(decode.partition()).isZero();
                            assertThat(decode.offset()).isEqualTo(37);
                            assertThat(decode.getMessage())
                                    .contains("topic '" + topic + "', partition 0, offset 37")
                                    .contains(decode.reason());
                        }));
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void eachSplitKeepsItsOwnWatermarkSoNoRowIsLate() throws Exception {
        String topic = "watermarks";
        KAFKA.broker().createTopic(topic, 2);
        // Partition 1's event times are far ahead of partition 0's: one watermark for the reader instead of
        // one per split would pass partition 0's rows as soon as partition 1 is read.
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long i = 0; i < 2_000; i++) {
            for (int p = 0; p < 2; p++) {
                long time = (p == 0 ? 1_000_000L : 9_000_000L) + i * 10;
                records.add(new ProducerRecord<>(topic, p, time, null, ByteBuffer.allocate(8).putLong(time).array()));
            }
        }
        SourceTopics.produce(KAFKA.broker(), records);
        ColumnarKafkaSource<ArrowBatch> source = boundedBigEndianLongs(topic, "t").setMaxBatchRows(50).build();
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(1);
        env.getConfig().setAutoWatermarkInterval(5);

        List<String> checks = env.fromSource(source, WatermarkStrategy.forMonotonousTimestamps(), "watermarked")
                .process(new LateRows())
                .executeAndCollect(10_000);

        assertThat(checks).as("batches seen").hasSizeGreaterThanOrEqualTo(80);
        assertThat(checks).filteredOn(c -> !c.startsWith("ok")).isEmpty();
        assertThat(checks).as("the watermark advanced while batches were read").anyMatch(c -> c.startsWith("ok advanced"));
    }

    /**
     * A chained operator that sleeps 10 ms per batch makes every step cost more than the 5 ms target, so the
     * batches shrink to the floor, each taken when the step before it was measured: the cap from a 10 ms step on
     * batches of n records is at most 5 ms over the average of 10 ms / n, which from a first batch of at most 500
     * records gives at most 250 records next and the floor from the 14th batch on (a longer step only lowers it).
     * Every record is read once, in offset order.
     */
    @Test
    void slowChainedWorkCutsTheNextBatchesToTheTimeTarget() throws Exception {
        String topic = "time-target";
        KAFKA.broker().createTopic(topic, 1);
        int count = 3_000;
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            records.add(new ProducerRecord<>(topic, 0, null, ByteBuffer.allocate(8).putLong(i).array()));
        }
        SourceTopics.produce(KAFKA.broker(), records);
        ColumnarKafkaSource<ArrowBatch> source = boundedBigEndianLongs(topic, "n")
                .setMaxBatchRows(500)
                .setMaxBatchTime(Duration.ofMillis(5))
                .build();
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        env.setParallelism(1);

        List<long[]> batches = env.fromSource(source, WatermarkStrategy.noWatermarks(), "time target")
                .flatMap(new SlowBatchRanges(10))
                .returns(long[].class)
                .executeAndCollect(10_000);

        long next = 0;
        for (long[] batch : batches) {
            assertThat(batch[1]).as("first value of a batch").isEqualTo(next);
            next = batch[1] + batch[0];
        }
        assertThat(next).as("records read").isEqualTo(count);
        assertThat(batches.get(0)[0]).isLessThanOrEqualTo(500);
        assertThat(batches.subList(1, batches.size())).allSatisfy(b -> assertThat(b[0]).isLessThanOrEqualTo(250));
        assertThat(batches).as("batches").hasSizeGreaterThan(14);
        assertThat(batches.subList(13, batches.size()))
                .allSatisfy(b -> assertThat(b[0]).isLessThanOrEqualTo(BatchTimeCap.MIN_ROWS));
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /** A bounded read of {@code topic}, each value a big-endian long in the BIGINT column {@code column}. */
    private static ColumnarKafkaSource.Builder boundedBigEndianLongs(String topic, String column) {
        return ColumnarKafkaSource.builder()
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setTopics(topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setRowType("ROW<" + column + " BIGINT>")
                .setValueFormat("raw", Map.of("endianness", "big-endian"));
    }

    private static long counter(Map<String, Metric> metrics, String name) {
        List<Long> counts = metrics.entrySet().stream()
                .filter(e -> e.getKey().endsWith("." + name) && e.getValue() instanceof Counter)
                .map(e -> ((Counter) e.getValue()).getCount())
                .toList();
        assertThat(counts).as("metric " + name + " in " + metrics.keySet()).isNotEmpty();
        return counts.stream().mapToLong(Long::longValue).sum();
    }

    private static Map<String, List<String>> byPartition(CloseableIterator<String> rows) throws Exception {
        Map<String, List<String>> byPartition = new TreeMap<>();
        try (rows) {
            while (rows.hasNext()) {
                String row = rows.next();
                byPartition.computeIfAbsent(row.substring(0, row.indexOf('|')), p -> new ArrayList<>()).add(row);
            }
        }
        return byPartition;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Rows of a {@code ROW<part STRING, v STRING>} batch as {@code part|v}; checks the batch size cap. */
    private static final class KeyedRows implements FlatMapFunction<ArrowBatch, String> {
        private final int maxRows;

        KeyedRows(int maxRows) {
            this.maxRows = maxRows;
        }

        @Override
        public void flatMap(ArrowBatch batch, Collector<String> out) {
            try (batch) {
                VectorSchemaRoot root = batch.open(null);
                if (root.getRowCount() > maxRows) {
                    throw new IllegalStateException("batch of " + root.getRowCount() + " rows over the cap " + maxRows);
                }
                VarCharVector part = (VarCharVector) root.getVector("part");
                VarCharVector v = (VarCharVector) root.getVector("v");
                for (int i = 0; i < root.getRowCount(); i++) {
                    out.collect(text(part, i) + "|" + text(v, i));
                }
            }
        }

        private static String text(VarCharVector vector, int i) {
            return vector.isNull(i) ? "<null>" : new String(vector.get(i), StandardCharsets.UTF_8);
        }
    }

    /** Per batch, after sleeping: its rows and its first value. */
    private static final class SlowBatchRanges implements FlatMapFunction<ArrowBatch, long[]> {
        private final long millis;

        SlowBatchRanges(long millis) {
            this.millis = millis;
        }

        @Override
        public void flatMap(ArrowBatch batch, Collector<long[]> out) throws InterruptedException {
            try (batch) {
                BigIntVector n = (BigIntVector) batch.open(null).getVector("n");
                Thread.sleep(millis);
                out.collect(new long[] {n.getValueCount(), n.get(0)});
            }
        }
    }

    private static final class LongValues implements FlatMapFunction<ArrowBatch, Long> {
        @Override
        public void flatMap(ArrowBatch batch, Collector<Long> out) {
            try (batch) {
                BigIntVector n = (BigIntVector) batch.open(null).getVector("n");
                for (int i = 0; i < n.getValueCount(); i++) {
                    out.collect(n.get(i));
                }
            }
        }
    }

    /**
     * Per batch: "ok" when its timestamp is its largest row time and no row is behind the current
     * watermark ("ok advanced" once the watermark has moved), else what went wrong. Sleeps a little per
     * batch so periodic watermarks are emitted between batches.
     */
    private static final class LateRows extends ProcessFunction<ArrowBatch, String> {
        @Override
        public void processElement(ArrowBatch batch, Context context, Collector<String> out) throws Exception {
            try (batch) {
                BigIntVector t = (BigIntVector) batch.open(null).getVector("t");
                long min = Long.MAX_VALUE;
                long max = Long.MIN_VALUE;
                for (int i = 0; i < t.getValueCount(); i++) {
                    min = Math.min(min, t.get(i));
                    max = Math.max(max, t.get(i));
                }
                long watermark = context.timerService().currentWatermark();
                if (context.timestamp() != max) {
                    out.collect("batch timestamp " + context.timestamp() + " is not its largest row time " + max);
                } else if (min <= watermark) {
                    out.collect("row time " + min + " at or behind the watermark " + watermark);
                } else {
                    out.collect(watermark > Long.MIN_VALUE ? "ok advanced" : "ok");
                }
            }
            Thread.sleep(2);
        }
    }

    /** The oracle: Flink's raw deserializer on the key and on the value of each record, as {@code key|value}. */
    private static final class FlinkRawKeyValue implements KafkaRecordDeserializationSchema<String> {
        private final LogicalType keyType;
        private final LogicalType valueType;
        private transient RawFormatDeserializationSchema key;
        private transient RawFormatDeserializationSchema value;

        FlinkRawKeyValue(RowType rowType) {
            this.keyType = rowType.getTypeAt(0);
            this.valueType = rowType.getTypeAt(1);
        }

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<String> out) throws java.io.IOException {
            if (key == null) {
                key = new RawFormatDeserializationSchema(keyType, InternalTypeInfo.of(RowType.of(keyType)), "UTF-8", true);
                value = new RawFormatDeserializationSchema(valueType, InternalTypeInfo.of(RowType.of(valueType)), "UTF-8", true);
            }
            RowData k = key.deserialize(record.key());
            RowData v = value.deserialize(record.value());
            out.collect(text(k) + "|" + text(v));
        }

        private static String text(RowData row) {
            return row == null || row.isNullAt(0) ? "<null>" : row.getString(0).toString();
        }

        @Override
        public TypeInformation<String> getProducedType() {
            return Types.STRING;
        }
    }
}
