package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.SqlOptions;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Fills a stateless query's {@link FloorTable} once per run, in a JVM of its own before any timed cell: stock Flink
 * runs the query as written over the input topic (the {@code kafka} connector, the json format), with each input
 * record's partition and offset carried along (metadata columns of the source table, selected first) and written
 * as the result record's key, its value the query's columns only ({@code value.fields-include} = {@code
 * EXCEPT_KEY}): the bytes stock's result table writes for that record. The table is those values by key.
 *
 * <p>Arguments: query, bootstrap servers, input topic, the topic to write the tagged output to, the table file, the
 * result file (the number of values).
 */
public final class FloorPrecompute {
    static final String PARTITION_COLUMN = "floor_partition";
    static final String OFFSET_COLUMN = "floor_offset";
    private static final Pattern KEY = Pattern.compile(
            "\\{\"" + PARTITION_COLUMN + "\":(\\d+),\"" + OFFSET_COLUMN + "\":(\\d+)}");

    private FloorPrecompute() {}

    public static void main(String[] args) throws Exception {
        NexmarkQuery query = NexmarkQuery.byId(args[0]);
        FloorTable table = run(query, args[1], args[2], args[3]);
        table.write(Path.of(args[4]));
        Properties result = new Properties();
        result.setProperty("kept", Long.toString(table.kept()));
        try (OutputStream out = Files.newOutputStream(Path.of(args[5]))) {
            result.store(out, query.id() + " floor table");
        }
        // Flink and Kafka leave non-daemon threads behind.
        System.exit(0);
    }

    /** Runs the tagged query over {@code input} into {@code tagged} (an empty topic), returns the table it wrote. */
    static FloorTable run(NexmarkQuery query, String servers, String input, String tagged) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.createTemporarySystemFunction("count_char", CountChar.class);
        List<String> statements = statements(query, servers, input, tagged);
        statements.subList(0, statements.size() - 1).forEach(tables::executeSql);
        tables.executeSql(statements.get(statements.size() - 1)).await();
        TopicReport report = TopicVerifier.forTopic(servers, tagged).keepRecords(true)
                .timeout(Duration.ofMinutes(5)).read();
        return table(report.records());
    }

    /**
     * The source table, views and the query's statements, each input record's partition and offset carried to the
     * result table's key: the source table gets them as metadata columns, the bid view and the INSERT select them
     * first, the result table declares them first and writes them as its key, its value the query's columns.
     */
    static List<String> statements(NexmarkQuery query, String servers, String input, String taggedTopic) {
        if (query.stateful) {
            throw new IllegalArgumentException(query.id() + " is stateful: its output is no function of one record");
        }
        List<String> statements = new ArrayList<>();
        statements.add(once(NexmarkSql.sourceTable("kafka", servers, input, "floor-" + query.id(), false,
                ClientSettings.DEFAULTS, true), "CREATE TABLE nexmark (\n    ", "CREATE TABLE nexmark (\n    "
                + PARTITION_COLUMN + " INT METADATA FROM 'partition' VIRTUAL, "
                + OFFSET_COLUMN + " BIGINT METADATA FROM 'offset' VIRTUAL,\n    "));
        for (String view : NexmarkSql.views()) {
            statements.add(view.startsWith("CREATE VIEW bid ") ? once(view, "SELECT ", tags() + " ") : view);
        }
        Map<String, String> sink = new TreeMap<>();
        sink.put("connector", "kafka");
        sink.put("topic", taggedTopic);
        sink.put("properties.bootstrap.servers", servers);
        sink.put("key.format", "json");
        sink.put("key.fields", PARTITION_COLUMN + ";" + OFFSET_COLUMN);
        sink.put("value.format", "json");
        sink.put("value.fields-include", "EXCEPT_KEY");
        List<String> queryStatements = query.statements(SqlOptions.of(sink));
        if (queryStatements.size() != 2) {
            throw new IllegalArgumentException(query.id() + " is not one result table and one INSERT");
        }
        String table = "CREATE TABLE nexmark_" + query.id() + " (";
        statements.add(once(queryStatements.get(0), table, table + PARTITION_COLUMN + " INT, " + OFFSET_COLUMN
                + " BIGINT, "));
        statements.add(once(queryStatements.get(1), "SELECT ", tags() + " "));
        return statements;
    }

    private static String tags() {
        return "SELECT " + PARTITION_COLUMN + ", " + OFFSET_COLUMN + ",";
    }

    /** {@code sql} with its one occurrence of {@code target} replaced; fails if there is not exactly one. */
    static String once(String sql, String target, String replacement) {
        int at = sql.indexOf(target);
        if (at < 0 || sql.indexOf(target, at + 1) >= 0) {
            throw new IllegalArgumentException("not exactly one '" + target.strip() + "' in: " + sql);
        }
        return sql.substring(0, at) + replacement + sql.substring(at + target.length());
    }

    /** The table of the tagged records: each value by the input partition and offset its key names. */
    static FloorTable table(List<TopicRecord> records) {
        FloorTable.Builder table = new FloorTable.Builder();
        for (TopicRecord record : records) {
            Matcher key = KEY.matcher(record.keyAsString());
            if (!key.matches()) {
                throw new IllegalStateException("not an input position: " + record.keyAsString());
            }
            table.put(Integer.parseInt(key.group(1)), Long.parseLong(key.group(2)), record.value());
        }
        return table.build();
    }
}
