package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.streaming.api.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Arrow-fed {@code ColumnarSink} writing the {@code timestamp}, {@code headers} and {@code topic} metadata
 * columns, as stock Flink's sink writes them: a columnar Calc (a filter, UPPER) over the columnar scan passes the
 * input records' timestamps (the scan's {@code timestamp} metadata), a header map from the value (null maps, null
 * header values, non-ASCII keys and bytes) and a topic from the value into a sink over two topics. Each output topic's
 * committed records (key, value, timestamp and headers) equal stock's, as multisets (two subtasks write each
 * partition), each record's headers in order (the header map's entries in Flink's {@code HashMap} order, as the
 * json decoder gives them); the columnar plan is the stage's from scan to sink, no edge to rows. With a custom
 * partitioner reading the consumed row (its physical and metadata columns) and the key bytes, each partition's
 * records, in order, equal stock's.
 */
class ColumnarSinkMetadataParityITCase {
    private static final int PARALLELISM = 2;
    private static final int RECORDS = 1200;
    private static final String INPUT = "sink_metadata_in";

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @BeforeAll
    static void fillInput() {
        KAFKA.broker().createTopic(INPUT, PARALLELISM);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            String headers = switch (i % 4) {
                case 0 -> "null";
                case 1 -> "{}";
                case 2 -> "{\"trace\": \"" + base64("t-" + i) + "\", \"gone\": null}";
                default -> "{\"\u00fcber \uD83D\uDE00\": \"" + base64("\u00e9" + i) + "\", \"n\": \"\"}";
            };
            String value = "{\"id\": " + i + ", \"name\": \"n\u00e4me " + i + "\", \"h\": " + headers
                    + ", \"t\": \"" + (i % 3 == 0 ? "b" : "a") + "\"}";
            // timestamps spread over 40 years, not in input order
            long timestamp = 1_000_000_000L + (i * 7_919L % RECORDS) * 1_051_897_000L;
            records.add(new ProducerRecord<>(INPUT, i % PARALLELISM, timestamp, utf8("{\"id\": " + i + "}"),
                    utf8(value)));
        }
        KAFKA.broker().produce(records);
    }

    @Test
    void timestampHeadersAndTopicColumnsAreWrittenAsFlinkWritesThem() throws Exception {
        List<List<String>> stock = run(false, null);
        List<List<String>> columnar = run(true, null);
        assertThat(stock.get(0)).as("stock's records in topic a").hasSizeGreaterThan(RECORDS / 3);
        assertThat(stock.get(1)).as("stock's records in topic b").hasSizeGreaterThan(RECORDS / 10);
        assertThat(stock.get(0)).as("the input's timestamps (before 2010), not the producer's, and headers")
                .allMatch(r -> Long.parseLong(r.substring(r.indexOf(" ts=") + 4, r.indexOf(" CreateTime")))
                        < 1_300_000_000_000L)
                .anyMatch(r -> r.contains("trace=")).anyMatch(r -> r.contains("\u00fcber \uD83D\uDE00="));
        assertThat(columnar).isEqualTo(stock);
    }

    /**
     * The same sink with a custom partitioner ({@link SubtaskShareRowPartitioner}), which Flink calls with each
     * consumed row: the Arrow-fed sink's writer calls it with a view of the batch. Each subtask writes partitions of
     * its own, so each partition's records are in the input's order: equal to stock's in order.
     */
    @Test
    void aCustomPartitionerReadingTheRowsPicksStocksPartitions() throws Exception {
        List<List<String>> stock = run(false, SubtaskShareRowPartitioner.class.getName());
        List<List<String>> columnar = run(true, SubtaskShareRowPartitioner.class.getName());
        assertThat(stock).as("stock's records in topics a and b, in each of their 4 partitions")
                .allSatisfy(topic -> assertThat(topic.stream().map(r -> r.substring(0, r.indexOf(' '))).distinct())
                        .containsExactlyInAnyOrder("p0", "p1", "p2", "p3"));
        assertThat(columnar).isEqualTo(stock);
    }

    /**
     * Runs the insert through stock's connectors or the stage's, with the given {@code sink.partitioner} class (null for
     * none); each output topic's records: sorted without a partitioner (two subtasks write each partition), else per
     * partition in offset order (each subtask its own partitions).
     */
    private static List<List<String>> run(boolean columnar, String partitioner) throws Exception {
        String variant = (columnar ? "columnar" : "stock") + (partitioner == null ? "" : "_partitioned");
        String a = "sink_metadata_" + variant + "_a";
        String b = "sink_metadata_" + variant + "_b";
        int partitions = partitioner == null ? PARALLELISM : 2 * PARALLELISM;
        KAFKA.broker().createTopic(a, partitions);
        KAFKA.broker().createTopic(b, partitions);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(500, CheckpointingMode.EXACTLY_ONCE);
        TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        if (columnar) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        String connector = columnar ? "kafka-columnar" : "kafka";
        String servers = KAFKA.broker().bootstrapServers();
        tEnv.executeSql("CREATE TABLE src (id BIGINT, name STRING, h MAP<STRING, BYTES>, t STRING,"
                + " ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH ('connector' = '" + connector + "', 'topic' = '"
                + INPUT + "', 'properties.bootstrap.servers' = '" + servers + "', 'properties.group.id' = '" + variant
                + "', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'format' = 'json')");
        tEnv.executeSql("CREATE TABLE out_table (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',"
                + " h MAP<STRING, BYTES> METADATA FROM 'headers', t STRING METADATA FROM 'topic') WITH ('connector' = '"
                + connector + "', 'topic' = '" + a + ";" + b + "', 'properties.bootstrap.servers' = '" + servers
                + "', 'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'json',"
                + " 'value.fields-include' = 'ALL', 'sink.delivery-guarantee' = 'exactly-once',"
                + " 'sink.transactional-id-prefix' = 'sink-metadata-" + variant + "',"
                + " 'properties.transaction.timeout.ms' = '60000'"
                + (partitioner == null ? "" : ", 'sink.partitioner' = '" + partitioner + "'") + ")");
        String insert = "INSERT INTO out_table SELECT id, UPPER(name), ts, h, CONCAT('sink_metadata_" + variant
                + "_', t) FROM src WHERE MOD(id, 5) <> 0";
        String explain = tEnv.explainSql(insert);
        if (columnar) {
            String plan = explain.substring(explain.indexOf("== Optimized Execution Plan =="));
            assertThat(plan).contains("ColumnarSink(").contains("ColumnarCalc(").contains("ColumnarScan(")
                    .doesNotContain("ArrowToRows(").doesNotContain("ColumnarRowSink(");
        }
        tEnv.executeSql(insert).await();
        ArrowMemoryChecks.assertReleased();
        return List.of(records(a, partitioner == null), records(b, partitioner == null));
    }

    private static List<String> records(String topic, boolean sorted) {
        List<String> out = new ArrayList<>();
        for (TopicRecord r : TopicVerifier.forTopic(KAFKA.broker(), topic).readCommitted().keepRecords(true).read()
                .records().stream()
                .sorted(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset))
                .toList()) {
            StringBuilder line = new StringBuilder("p" + r.partition() + " key=" + r.keyAsString() + " ts="
                    + r.timestamp() + " " + r.timestampType() + " value=" + r.valueAsString() + " headers=");
            for (Header header : r.headers()) {
                line.append(header.key()).append('=').append(base64(header.value())).append(';');
            }
            out.add(line.toString());
        }
        if (sorted) {
            out.sort(null);
        }
        return out;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String base64(String text) {
        return base64(utf8(text));
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
