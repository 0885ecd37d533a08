package io.columnarkafka.bench.sink;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * The job of the SQL variants, as a user writes it: a bounded datagen table of Bid-shaped rows ({@code random}
 * values with {@code number-of-rows}: a {@code sequence} would keep its whole range in checkpoint state) and
 * the same {@code INSERT INTO bids SELECT * FROM bids_src}, where {@code bids} is a json, exactly-once
 * {@code kafka} or {@code kafka-columnar} table with the run's producer settings, or a {@code blackhole}
 * table (the source and the planner's operators alone). The INSERT is attached to the environment, so it
 * runs on the same MiniCluster, with the same checkpointing and measurements, as the DataStream variants.
 * ({@code dateTime} is a reserved word in Flink SQL, hence the backticks, as in Nexmark's DDL.)
 */
final class SqlVariantJob {
    /** What a SQL sink operator's name holds when the columnar sink was admitted ({@code ColumnarKafkaDynamicSink}). */
    static final String ADMITTED_OPERATOR = "ColumnarEncode[";

    private static final String SOURCE = String.join("\n",
            "CREATE TABLE bids_src (",
            "  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(%d),",
            "  extra STRING",
            ") WITH (",
            "  'connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '1000000000',",
            "  'fields.bidder.min' = '1000', 'fields.bidder.max' = '1000000',",
            "  'fields.price.min' = '100', 'fields.price.max' = '100000000',",
            "  'fields.channel.length' = '8', 'fields.url.length' = '90', 'fields.extra.length' = '40',",
            "  'fields.dateTime.max-past' = '1d'",
            ")");

    private SqlVariantJob() {}

    /** Attaches the variant's INSERT to {@code env}. */
    static void build(StreamExecutionEnvironment env, RunSpec spec) {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(String.format(Locale.ROOT, SOURCE, spec.sqlTimestampPrecision(), spec.rows()));
        tEnv.executeSql("CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                + " `dateTime` TIMESTAMP(" + spec.sqlTimestampPrecision() + "), extra STRING) WITH ("
                + sinkOptions(spec) + ")");
        StreamStatementSet insert = tEnv.createStatementSet();
        insert.addInsertSql("INSERT INTO bids SELECT * FROM bids_src");
        insert.attachAsDataStream();
    }

    private static String sinkOptions(RunSpec spec) {
        String connector = switch (spec.variant()) {
            case SQL_KAFKA -> "kafka";
            case SQL_COLUMNAR -> "kafka-columnar";
            case SQL_BLACKHOLE -> "blackhole";
            default -> throw new IllegalArgumentException("variant (" + spec.variant().letter() + ") is not a SQL variant");
        };
        if (spec.variant() == Variant.SQL_BLACKHOLE) {
            return "'connector' = 'blackhole'";
        }
        StringBuilder options = new StringBuilder()
                .append(option("connector", connector))
                .append(", ").append(option("topic", spec.topic()))
                .append(", ").append(option("properties.bootstrap.servers", spec.bootstrapServers()))
                .append(", ").append(option("value.format", "json"))
                .append(", ").append(option("sink.delivery-guarantee", "exactly-once"))
                .append(", ").append(option("sink.transactional-id-prefix", spec.topic()));
        for (Map.Entry<Object, Object> p : ProducerSettings.of(spec).entrySet()) {
            options.append(", ").append(option("properties." + p.getKey(), String.valueOf(p.getValue())));
        }
        return options.toString();
    }

    private static String option(String key, String value) {
        return "'" + key + "' = '" + value.replace("'", "''") + "'";
    }

    /** The names of the graph's operators that write (sinks and the columnar encoder), for the report. */
    static String sinkOperators(StreamGraph graph) {
        return graph.getStreamNodes().stream()
                .map(StreamNode::getOperatorName)
                .filter(name -> name.contains("Sink") || name.contains(ADMITTED_OPERATOR) || name.contains("Writer"))
                .distinct()
                .collect(Collectors.joining(" | "));
    }
}
