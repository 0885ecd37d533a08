package io.columnarkafka.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Timestamp text with more fraction digits than the declared precision, Kafka json in and out, through stock
 * Flink and through the planner stage fully columnar ({@code ColumnarScan}, {@code ColumnarCalc}, {@code
 * ColumnarSink}, no {@code ArrowToRows}): stock writes every digit of the text (a chained job never builds a
 * binary row), and so must the Arrow path, through a filter on a timestamp, a CAST of one to STRING and a
 * plain projection.
 */
class TimestampDigitsPlannerITCase {
    private static final AtomicInteger RUN = new AtomicInteger();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(1);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final String[] TIMES = {
        "2020-01-02 03:04:05.123456789", "1969-12-31 23:59:59.987654321", "0001-01-01 00:00:00.000000001",
        "9999-12-31 23:59:59.999999999", "2020-01-02 03:04:05", "2020-01-02 03:04:05.1",
        "2020-01-02 03:04:05.1234", "1970-01-01 00:00:00.0000005", null};

    private static final String COLUMNS = "id BIGINT, t0 TIMESTAMP(0), t3 TIMESTAMP(3), t6 TIMESTAMP(6),"
            + " t9 TIMESTAMP(9), l3 TIMESTAMP_LTZ(3), r ROW<t TIMESTAMP(3)>";

    private static List<byte[]> records() {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < TIMES.length; i++) {
            String t = TIMES[i] == null ? "null" : "\"" + TIMES[i] + "\"";
            String l = TIMES[i] == null ? "null" : "\"" + TIMES[i] + "Z\"";
            records.add(("{\"id\":" + i + ",\"t0\":" + t + ",\"t3\":" + t + ",\"t6\":" + t + ",\"t9\":" + t
                    + ",\"l3\":" + l + ",\"r\":{\"t\":" + t + "}}").getBytes(StandardCharsets.UTF_8));
        }
        return records;
    }

    /** Runs {@code insert} from {@code <prefix>in} into {@code <prefix>out}; returns the EXPLAIN and the records. */
    private static List<String> run(boolean columnar, String outColumns, String insert, List<String> explain)
            throws Exception {
        String prefix = "ts_digits_" + (columnar ? "c" : "s") + RUN.incrementAndGet() + "_";
        KAFKA.broker().createTopic(prefix + "in", 1);
        KAFKA.broker().createTopic(prefix + "out", 1);
        List<ProducerRecord<byte[], byte[]>> input = new ArrayList<>();
        for (byte[] record : records()) {
            input.add(new ProducerRecord<>(prefix + "in", 0, null, record));
        }
        KAFKA.broker().produce(input);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        if (columnar) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        String connector = columnar ? "kafka-columnar" : "kafka";
        String options = " WITH ('connector' = '" + connector + "', 'properties.bootstrap.servers' = '"
                + KAFKA.broker().bootstrapServers() + "', 'format' = 'json', ";
        tEnv.executeSql("CREATE TABLE src (" + COLUMNS + ")" + options + "'topic' = '" + prefix + "in',"
                + " 'properties.group.id' = '" + prefix + "g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset')");
        tEnv.executeSql("CREATE TABLE dst (" + outColumns + ")" + options + "'topic' = '" + prefix + "out')");
        explain.add(tEnv.explainSql(insert));
        tEnv.executeSql(insert).await();
        ArrowMemoryChecks.assertReleased();
        List<String> values = new ArrayList<>();
        for (TopicRecord r : TopicVerifier.forTopic(KAFKA.broker(), prefix + "out").keepRecords(true).read()
                .records()) {
            values.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        return values;
    }

    private static void parity(String outColumns, String insert) throws Exception {
        List<String> explain = new ArrayList<>();
        List<String> stock = run(false, outColumns, insert, explain);
        List<String> columnar = run(true, outColumns, insert, explain);
        System.out.println("STOCK\n" + String.join("\n", stock) + "\nCOLUMNAR\n" + String.join("\n", columnar));
        assertThat(String.join("\n", stock)).as("stock writes every fraction digit of the text")
                .contains("05.123456789", "59.987654321");
        assertThat(explain.get(1)).as("fully columnar").contains("ColumnarScan(").contains("ColumnarSink(")
                .doesNotContain("ArrowToRows(");
        assertThat(columnar).as("columnar vs stock records").isEqualTo(stock);
    }

    @Test
    void everyColumnPassesThrough() throws Exception {
        parity(COLUMNS, "INSERT INTO dst SELECT * FROM src");
    }

    @Test
    void aFilterOnATimestampAProjectionAndACastToString() throws Exception {
        parity("id BIGINT, t3 TIMESTAMP(3), s3 STRING, t6 TIMESTAMP(6), s9 STRING, r ROW<t TIMESTAMP(3)>",
                "INSERT INTO dst SELECT id, t3, CAST(t3 AS STRING), t6, CAST(t9 AS STRING), r FROM src"
                        + " WHERE t3 > TIMESTAMP '1969-12-31 23:59:59.987' AND id <> 4");
    }
}
