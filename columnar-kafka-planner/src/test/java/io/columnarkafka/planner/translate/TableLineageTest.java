package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.planner.ColumnarSql;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageDatasetFacet;
import org.apache.flink.streaming.api.lineage.LineageGraph;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.planner.lineage.TableSinkLineageVertex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The job's lineage graph (what a job status listener, e.g. an OpenLineage integration, reads) with the planner
 * stage is the one stock Flink's plan gives through Flink's {@code kafka} / {@code upsert-kafka} connectors: the same
 * source and sink vertices (the tables as datasets, the sink's Kafka namespace and facets from its {@code KafkaSink},
 * the scan's boundedness, the sink's modify type) and relations. Planning only.
 */
class TableLineageTest {
    private static final String[] QUERIES = {
        // columnar scan, calc and sink
        "INSERT INTO results SELECT auction, price FROM bids WHERE price > 10",
        // columnar scan and calc, the edge, Flink's aggregate, the columnar row sink
        "INSERT INTO counts SELECT auction, COUNT(*) FROM bids GROUP BY auction",
        // a statement set whose two sinks read the same columns: one columnar scan for both (where they read
        // different columns the stage plans a scan each, docs/planner.md "Shared scans", and the graph has a
        // source vertex for each)
        "EXECUTE STATEMENT SET BEGIN INSERT INTO results SELECT auction, price FROM bids WHERE price > 10;"
                + " INSERT INTO counts SELECT auction, COUNT(*) FROM bids WHERE price > 20 GROUP BY auction; END"};

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void theStagesLineageIsStockFlinks(int query) {
        String stock = lineage(Variant.STOCK, QUERIES[query]);
        assertThat(stock).as("stock Flink's lineage has the tables").contains("bids").contains("kafka://localhost:1/");
        assertThat(lineage(Variant.STAGE, QUERIES[query])).isEqualTo(stock);
    }

    /**
     * Without the stage, Flink's scan and sink nodes give the lineage: the same, but for the sink dataset's Kafka
     * namespace and facets, which Flink's sink node takes only from a {@code Sink} it is handed (a {@code
     * SinkV2Provider}), not from the connector's encode-then-{@code KafkaSink} topology ({@code
     * DataStreamSinkProvider}).
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void theConnectorsLineageIsStockFlinksButTheSinksKafkaFacets(int query) {
        String stock = lineage(Variant.STOCK, QUERIES[query]);
        String withoutSinkFacets = stock.replaceAll(
                "kafka://localhost:1/(default_catalog[.a-z_]+)\\[kafka=[^]]*][^]]*]", "/$1[]");
        assertThat(withoutSinkFacets).as("the sinks' facets taken out").isNotEqualTo(stock).doesNotContain("kafka=");
        assertThat(lineage(Variant.CONNECTOR, QUERIES[query])).isEqualTo(withoutSinkFacets);
    }

    private enum Variant { STOCK, CONNECTOR, STAGE }

    /** The lineage graph of the query planned by {@code variant}, as text (vertices, datasets, relations). */
    private static String lineage(Variant variant, String insert) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (variant == Variant.STAGE) {
            assertThat(ColumnarSql.install(tEnv).installed()).isTrue();
        }
        String suffix = variant == Variant.STOCK ? "" : "-columnar";
        tEnv.executeSql("CREATE TABLE bids (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka" + suffix + "',"
                + " 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'format' = 'json')");
        tEnv.executeSql("CREATE TABLE results (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka" + suffix
                + "', 'topic' = 'results', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json')");
        tEnv.executeSql("CREATE TABLE counts (auction BIGINT, n BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka" + suffix + "', 'topic' = 'counts',"
                + " 'properties.bootstrap.servers' = 'localhost:1', 'key.format' = 'json', 'value.format' = 'json')");
        StreamStatementSet set = tEnv.createStatementSet();
        if (insert.startsWith("EXECUTE")) {
            for (String one : insert.substring(insert.indexOf("BEGIN") + 5, insert.lastIndexOf("END")).split(";")) {
                if (!one.isBlank()) {
                    set.addInsertSql(one);
                }
            }
        } else {
            set.addInsertSql(insert);
        }
        if (variant == Variant.STAGE) {
            assertThat(set.explain()).as("the stage planned it").contains("ColumnarScan(");
        }
        set.attachAsDataStream();
        LineageGraph graph = env.getStreamGraph().getLineageGraph();
        return "sources " + graph.sources().stream().map(v -> describe(v) + " " + v.boundedness()).sorted().toList()
                + "\nsinks " + graph.sinks().stream().map(v -> describe(v)
                        + (v instanceof TableSinkLineageVertex t ? " " + t.modifyType() : "")).sorted().toList()
                + "\nrelations " + graph.relations().stream().map(e -> describe(e.source()) + " -> "
                        + describe(e.sink())).sorted().toList();
    }

    private static String describe(LineageVertex vertex) {
        return vertex.getClass().getSimpleName() + vertex.datasets().stream().map(TableLineageTest::describe)
                .collect(Collectors.toList());
    }

    private static String describe(LineageDataset dataset) {
        return dataset.namespace() + "/" + dataset.name() + new TreeMap<>(dataset.facets()).entrySet().stream()
                .map(facet -> facet.getKey() + "=" + describe(facet.getValue())).toList();
    }

    private static String describe(LineageDatasetFacet facet) {
        if (facet instanceof KafkaDatasetFacet kafka) {
            Map<Object, Object> properties = new TreeMap<>(kafka.getProperties());
            // the producer property the columnar sinks add (their send window's interceptor): the truth, not a
            // difference in what the job reads or writes
            properties.remove("interceptor.classes", "io.columnarkafka.flink.sink.SendWindowInterceptor");
            return "topics " + kafka.getTopicIdentifier().getTopics() + " pattern "
                    + kafka.getTopicIdentifier().getTopicPattern() + " properties " + properties;
        }
        if (facet instanceof TypeDatasetFacet type) {
            return "type " + type.getTypeInformation();
        }
        return facet.getClass().getName();
    }
}
