package io.columnarkafka.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How the rows reach the sink's subtasks, in the job graph Flink would run (planning only): stock Flink's {@code
 * upsert-kafka} plan against the stage's over {@code upsert-kafka-columnar}, on an input at parallelism 2, for every
 * {@code table.exec.sink.keyed-shuffle}, with no {@code sink.parallelism}, 1 and 3, with and without buffer-flush: the
 * exchanges between subtasks ({@code HASH}: Flink's keyed shuffle, {@code REBALANCE}: round-robin), in order, must be
 * stock's, fed the batches of a columnar Calc (the Arrow-fed sink's {@code BatchSplit}) or the rows of Flink's
 * aggregate (Flink's sink node over the connector's provider, which reports the parallelism Flink's does).
 */
class SinkExchangeShipStrategyTest {
    private static final Pattern SHIP_STRATEGY = Pattern.compile("\"ship_strategy\" : \"([A-Z_]+)\"");

    static Stream<Arguments> sinks() {
        List<Arguments> sinks = new ArrayList<>();
        for (String shuffle : new String[] {"AUTO", "FORCE", "NONE"}) {
            for (String parallelism : new String[] {"", ", 'sink.parallelism' = '1'", ", 'sink.parallelism' = '3'"}) {
                for (String buffer : new String[] {"", ", 'sink.buffer-flush.max-rows' = '7',"
                        + " 'sink.buffer-flush.interval' = '1 s'"}) {
                    sinks.add(Arguments.of(shuffle, parallelism + buffer));
                }
            }
        }
        return sinks.stream();
    }

    @ParameterizedTest
    @MethodSource("sinks")
    void theColumnarPlanMovesTheRowsAsStocks(String shuffle, String sinkOptions) {
        for (String insert : new String[] {"INSERT INTO latest SELECT auction, price * 2 FROM bids",
                "INSERT INTO latest SELECT auction, MAX(price) FROM bids GROUP BY auction"}) {
            List<String> stock = exchanges(false, shuffle, sinkOptions, insert);
            assertThat(exchanges(true, shuffle, sinkOptions, insert)).as(insert).isEqualTo(stock);
        }
    }

    /** The ship strategies of the job graph's edges that move rows between subtasks, in the plan's order. */
    private static List<String> exchanges(boolean columnar, String shuffle, String sinkOptions, String insert) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        if (columnar) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        tEnv.getConfig().set("table.exec.sink.keyed-shuffle", shuffle);
        String suffix = columnar ? "-columnar" : "";
        tEnv.executeSql("CREATE TABLE bids (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka" + suffix + "',"
                + " 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')");
        tEnv.executeSql("CREATE TABLE latest (auction BIGINT, price BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka" + suffix + "', 'topic' = 'latest', 'properties.bootstrap.servers' ="
                + " 'localhost:1', 'key.format' = 'json', 'value.format' = 'json'" + sinkOptions + ")");
        Matcher strategies = SHIP_STRATEGY.matcher(tEnv.explainSql(insert, ExplainDetail.JSON_EXECUTION_PLAN));
        List<String> exchanges = new ArrayList<>();
        while (strategies.find()) {
            if (!strategies.group(1).equals("FORWARD")) {
                exchanges.add(strategies.group(1));
            }
        }
        return exchanges;
    }
}
