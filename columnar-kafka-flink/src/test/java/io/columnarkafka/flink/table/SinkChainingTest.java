package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;

/**
 * Where the SQL sink's encode operator is chained: always with {@code KafkaSink}'s writer, so encoded
 * records never cross a network channel; behind a FLIP-27 source in the source's chain, behind a legacy
 * {@code SourceFunction} (whose chain Flink never lets the yielding writer join) in a chain of its own.
 * Planning only: no broker, no job run.
 */
class SinkChainingTest {
    private static final String SINK = "CREATE TABLE dst (id BIGINT, s STRING) WITH ('connector' = 'kafka-columnar',"
            + " 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9', 'value.format' = 'json',"
            + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'chaining')";

    @Test
    void behindALegacySourceTheEncoderStartsTheWritersChain() {
        List<String> vertices = vertices("CREATE TABLE src (id BIGINT, s STRING) WITH ("
                + "'connector' = 'datagen', 'number-of-rows' = '10')", "INSERT INTO dst SELECT * FROM src");
        assertThat(vertices).hasSize(2);
        assertThat(vertices.get(0)).startsWith("Source: src").doesNotContain("ColumnarEncode");
        assertThat(vertices.get(1)).startsWith("ColumnarEncode[kafka-columnar[admitted: json value]]")
                .contains("KafkaSink[kafka-columnar[admitted: json value]]: Writer");
    }

    @Test
    void behindAFlip27SourceTheWholeJobIsOneChain() {
        List<String> vertices = vertices("CREATE TABLE src (id BIGINT, s STRING) WITH ("
                + "'connector' = 'kafka-columnar', 'topic' = 'in', 'properties.bootstrap.servers' = 'localhost:9',"
                + " 'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json',"
                + " 'scan.bounded.mode' = 'latest-offset')", "INSERT INTO dst SELECT id, s FROM src WHERE id > 0");
        assertThat(vertices).singleElement().asString()
                .contains("ColumnarEncode[kafka-columnar[admitted: json value]] -> KafkaSink");
    }

    /** The job vertices' names (one per chain) of the INSERT, in topological order. */
    private static List<String> vertices(String sourceDdl, String insert) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(1000);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        tableEnv.executeSql(sourceDdl);
        tableEnv.executeSql(SINK);
        StreamStatementSet statements = tableEnv.createStatementSet();
        statements.addInsertSql(insert);
        statements.attachAsDataStream();
        Iterable<JobVertex> graph = env.getStreamGraph().getJobGraph().getVerticesSortedTopologicallyFromSources();
        return StreamSupport.stream(graph.spliterator(), false).map(JobVertex::getName).toList();
    }
}
