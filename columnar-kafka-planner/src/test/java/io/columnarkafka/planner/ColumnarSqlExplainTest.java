package io.columnarkafka.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.calc.FlinkCodeUdfs;
import io.columnarkafka.flink.table.FlinkInternalsSeam;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.NodeKind;
import io.columnarkafka.planner.match.Reason;
import io.columnarkafka.planner.nexmark.SubtaskShareRowPartitioner;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.junit.jupiter.api.Test;

/**
 * What the stage does to plans, read from EXPLAIN (planning only: no broker, no job). Each test states the
 * columnar nodes, the edges and the reasons the plan must show.
 */
class ColumnarSqlExplainTest {
    private static final String BIDS = "CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING,"
            + " url STRING, `dateTime` TIMESTAMP(3), extra STRING) WITH ('connector' = 'kafka-columnar',"
            + " 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
            + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')";

    private static String sink(String name, String columns, String connector) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH ('connector' = '" + connector + "', 'topic' = '"
                + name + "', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json',"
                + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + name + "')";
    }

    private static TableEnvironment installed() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        InstallResult result = ColumnarSql.install(tEnv);
        assertThat(result.status()).as(result.message()).isEqualTo(InstallStatus.INSTALLED);
        tEnv.executeSql(BIDS);
        return tEnv;
    }

    @Test
    void installingTwiceChangesNothing() {
        TableEnvironment tEnv = installed();
        assertThat(ColumnarSql.install(tEnv).status()).isEqualTo(InstallStatus.ALREADY_INSTALLED);
    }

    @Test
    void kafkaColumnarToKafkaColumnarIsColumnarEndToEnd() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(sink("results", "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                + " `dateTime` TIMESTAMP(3), extra STRING", "kafka-columnar"));
        String plan = tEnv.explainSql("INSERT INTO results SELECT * FROM bids");
        System.out.println(plan);
        assertThat(plan).contains("ColumnarScan(table=[[default_catalog, default_database, bids]]")
                .contains("decode=[admitted: json value, bounded latest]")
                .contains("ColumnarSink(table=[default_catalog.default_database.results]")
                .contains("encode=[admitted: json value, Arrow input]")
                .doesNotContain("ArrowToRows");
    }

    /**
     * On a connector whose {@code KafkaSource} keeps its settings elsewhere (the probe pointed at a class without
     * them, {@link FlinkInternalsSeam}; the columnar scan reads them when the job is translated), the scan is
     * Flink's, with the reason, decided when the table is planned: the job translates. The same query on this
     * connector is columnar.
     */
    @Test
    void whereTheKafkaSourcesSettingsAreUnreadableTheScanIsFlinksWithTheReason() {
        String insert = "INSERT INTO results SELECT auction, price FROM bids WHERE price > 10";
        TableEnvironment admitted = installed();
        admitted.executeSql(sink("results", "auction BIGINT, price BIGINT", "kafka-columnar"));
        assertThat(ColumnarSql.explain(admitted, insert)).contains("ColumnarScan(").contains("ColumnarSink(");
        try (FlinkInternalsSeam elsewhere = FlinkInternalsSeam.kafkaSourceFieldsOf(Object.class)) {
            TableEnvironment tEnv = installed();
            tEnv.executeSql(sink("results", "auction BIGINT, price BIGINT", "kafka-columnar"));
            assertThat(ColumnarSql.explain(tEnv, insert)).doesNotContain("ColumnarScan(").contains("TableSourceScan(")
                    .contains("Flink TableSourceScan: SCAN_NOT_ADMITTED fallback: UNSUPPORTED_CONNECTOR java.lang.Object"
                            + " has no field props (not flink-connector-kafka 5.0)");
            TableEnvironmentImpl impl = (TableEnvironmentImpl) tEnv;
            assertThat(((PlannerBase) impl.getPlanner())
                    .translate(List.of((ModifyOperation) impl.getParser().parse(insert).get(0)))).isNotEmpty();
        }
    }

    /** A watermarked table with record metadata: the strategy and the metadata columns are in the columnar scan. */
    @Test
    void anEventTimeWindowReadsAColumnarScanWithItsWatermarkAndMetadata() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids (", "CREATE TABLE timed (p INT METADATA FROM 'partition' VIRTUAL,"
                + " o BIGINT METADATA FROM 'offset' VIRTUAL, ").replace("extra STRING)",
                "extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND)"));
        tEnv.executeSql(sink("windows", "p INT, n BIGINT, o BIGINT", "kafka-columnar"));
        String plan = tEnv.explainSql("INSERT INTO windows SELECT p, COUNT(*), MAX(o) FROM TABLE(TUMBLE(TABLE timed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY p, window_start, window_end");
        String physical = plan.substring(plan.indexOf("== Optimized Physical Plan =="));
        assertThat(physical).contains("ColumnarScan(table=[[default_catalog, default_database, timed,")
                .contains("metadata=[partition, offset], watermark=[-(dateTime, 4000:INTERVAL SECOND)]")
                .contains("fields=[dateTime, p, o]")
                .contains("decode=[admitted: json value, metadata partition offset, watermark, bounded latest]")
                .contains("watermark=[columnar]")
                .contains("ColumnarLocalWindowAggregate(").contains("GlobalWindowAggregate(")
                .doesNotContain("ArrowToRows(").doesNotContain("WatermarkAssigner(");
    }

    /**
     * A watermark the calc does not evaluate (a month interval: Flink adds months on the calendar) keeps the columnar
     * scan, which finds each batch's watermark row with Flink's generator, and says why.
     */
    @Test
    void aWatermarkTheCalcDoesNotEvaluateIsFoundByTheRowProbe() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids (", "CREATE TABLE timed (").replace("extra STRING)",
                "extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '1' MONTH)"));
        tEnv.executeSql(sink("windows", "n BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO windows SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE timed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY window_start, window_end");
        assertThat(section(explained, "== Optimized Physical Plan ==")).contains("ColumnarScan(")
                .contains("watermark=[row probe: MINUS on TIMESTAMP(3), INTERVAL MONTH")
                .doesNotContain("watermark=[columnar]");
    }

    /** Per-row watermark emission cannot happen inside an Arrow batch: the scan stays the connector's row scan. */
    @Test
    void onEventWatermarksKeepTheRowScan() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids (", "CREATE TABLE timed (").replace("extra STRING)",
                "extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND)")
                .replace("'format' = 'json'", "'format' = 'json', 'scan.watermark.emit.strategy' = 'on-event'"));
        tEnv.executeSql(sink("windows", "n BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO windows SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE timed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY window_start, window_end");
        assertThat(explained).doesNotContain("ColumnarScan(")
                .contains("SCAN_NOT_ADMITTED fallback: UNSUPPORTED_WATERMARK scan.watermark.emit.strategy=on-event");
    }

    /**
     * An upsert scan emits row kinds (a tombstone is a DELETE row) for Flink's ChangelogNormalize, a row operator:
     * it stays the connector's row scan (columnar decode, each row's kind set by its row view), with the reason,
     * and no Calc above it turns columnar: Flink's Calc over its rows is taken into the row sink, which keeps each
     * row's kind.
     */
    @Test
    void anUpsertScanStaysTheConnectorsRowScanWithItsRowKinds() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql("CREATE TABLE prices (auction BIGINT, price BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka-columnar', 'topic' = 'prices', 'properties.bootstrap.servers' = 'localhost:1',"
                + " 'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')");
        tEnv.executeSql("CREATE TABLE doubled (auction BIGINT, price BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka-columnar', 'topic' = 'doubled', 'properties.bootstrap.servers' = 'localhost:1',"
                + " 'key.format' = 'json', 'value.format' = 'json')");
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO doubled SELECT auction, price * 2 FROM prices");
        assertThat(explained).doesNotContain("ColumnarScan(").doesNotContain("ColumnarCalc(")
                .doesNotContain("ArrowToRows(")
                .contains("SCAN_NOT_ADMITTED fallback: UNSUPPORTED_CHANGELOG upsert: Flink's ChangelogNormalize reads"
                        + " the scan's rows; the connector's row scan (columnar decode) sets each row's kind");
        assertThat(explained).contains("columnar Calc: in the row sink's encode operator, Flink's generated code")
                .contains("calc=[Calc(select=[auction, (price * 2) AS EXPR$1])]");
    }

    /**
     * A debezium-json scan emits row kinds (an update is an UPDATE_BEFORE and an UPDATE_AFTER row): its Arrow batches
     * carry them in a column after the fields, which the columnar Calc projects along, into a debezium-json sink that
     * writes by them: no row on the way.
     */
    @Test
    void aDebeziumScanIntoADebeziumSinkIsColumnarWithItsRowKinds() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql("CREATE TABLE changes (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = 'changes', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'debezium-json',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')");
        tEnv.executeSql("CREATE TABLE doubled (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = 'doubled', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'debezium-json')");
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO doubled SELECT auction, price * 2 FROM changes"
                + " WHERE price > 10");
        assertThat(section(explained, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("ColumnarSink(table=[default_catalog.default_database.doubled], fields=[auction, EXPR$1],"
                        + " encode=[admitted: debezium-json value, Arrow input], rowKinds=[from batches])")
                .contains("ColumnarCalc(select=[auction, *(price, 2) AS EXPR$1], where=[>(price, 10)])")
                .contains("ColumnarScan(table=[[default_catalog, default_database, changes]], fields=[auction, price]");
    }

    /**
     * A custom partitioner, which Flink calls with each consumed row: the Arrow-fed sink's writer calls it with a view
     * of the batch, its kind from the row-kind column of a changelog's batches; the plan is columnar to the sink,
     * which names the partitioner, with no edge to rows.
     */
    @Test
    void aCustomPartitionerIsCalledFromTheArrowFedSink() {
        TableEnvironment tEnv = installed();
        String partitioner = SubtaskShareRowPartitioner.class.getName();
        tEnv.executeSql("CREATE TABLE changes (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = 'changes', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'debezium-json',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')");
        String sink = "CREATE TABLE ${name} (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = '${name}', 'properties.bootstrap.servers' = 'localhost:1', 'key.format' = 'json',"
                + " 'key.fields' = 'auction', 'value.format' = '${format}', 'sink.partitioner' = '" + partitioner + "')";
        tEnv.executeSql(sink.replace("${name}", "partitioned").replace("${format}", "json"));
        tEnv.executeSql(sink.replace("${name}", "partitioned_changes").replace("${format}", "debezium-json"));
        String inserts = ColumnarSql.explain(tEnv, "INSERT INTO partitioned SELECT auction, price * 2 FROM bids"
                + " WHERE price > 10");
        assertThat(section(inserts, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("ColumnarSink(table=[default_catalog.default_database.partitioned], fields=[auction, EXPR$1],"
                        + " encode=[admitted: json value, json key, custom partitioner " + partitioner
                        + ", Arrow input])\n+- ColumnarCalc(");
        String changes = ColumnarSql.explain(tEnv, "INSERT INTO partitioned_changes SELECT auction, price * 2 FROM"
                + " changes WHERE price > 10");
        assertThat(section(changes, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("encode=[admitted: debezium-json value, json key, custom partitioner " + partitioner
                        + ", Arrow input], rowKinds=[from batches])\n+- ColumnarCalc(");
    }

    /**
     * The same scan into an upsert table writes each DELETE and UPDATE_BEFORE row as a tombstone: columnar where the
     * scan's primary key is the sink's, Flink's DropUpdateBefore in front of the sink a filter on the batches' row
     * kinds; without one, Flink puts its upsert materializer there, a row operator, and keeps its sink node with the
     * reason.
     */
    @Test
    void aDebeziumScanIntoAnUpsertTableWritesTombstonesFromTheBatches() {
        TableEnvironment tEnv = installed();
        String changes = "CREATE TABLE ${name} (auction BIGINT, price BIGINT${key}) WITH ('connector' ="
                + " 'kafka-columnar', 'topic' = 'changes', 'properties.bootstrap.servers' = 'localhost:1', 'format' ="
                + " 'debezium-json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')";
        tEnv.executeSql(changes.replace("${name}", "keyed").replace("${key}", ", PRIMARY KEY (auction) NOT ENFORCED"));
        tEnv.executeSql(changes.replace("${name}", "unkeyed").replace("${key}", ""));
        tEnv.executeSql(upsertLatest(""));
        String keyed = ColumnarSql.explain(tEnv, "INSERT INTO latest SELECT auction, price * 2 FROM keyed");
        assertThat(section(keyed, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("encode=[admitted: json value, json key, upsert tombstones, Arrow input],"
                        + " rowKinds=[from batches])")
                .contains("ColumnarCalc(select=[auction, *(price, 2) AS EXPR$1])\n   +- ColumnarDropUpdateBefore\n"
                        + "      +- ColumnarScan(table=[[default_catalog, default_database, keyed]]");
        String unkeyed = ColumnarSql.explain(tEnv, "INSERT INTO latest SELECT auction, price * 2 FROM unkeyed");
        assertThat(section(unkeyed, "== Optimized Execution Plan ==")).contains("upsertMaterialize=[true]")
                .contains("ArrowToRows(reason=[NOT_INSERT_ONLY the input is a changelog, through Flink's upsert"
                        + " materializer], rows=[binary], rowKinds=[from batches])");
    }

    /**
     * An upsert table with {@code sink.buffer-flush.*}: the Arrow-fed sink takes the batches' rows into Flink's reducing
     * buffer itself, no edge to rows.
     */
    @Test
    void anUpsertTableWithBufferFlushIsFedTheBatches() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(upsertLatest(", 'sink.buffer-flush.max-rows' = '7', 'sink.buffer-flush.interval' = '1 s'"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO latest SELECT auction, price * 2 FROM bids");
        assertThat(section(explained, "== Optimized Execution Plan ==")).doesNotContain("ArrowToRows(")
                .contains("encode=[admitted: json value, json key, upsert tombstones, buffer-flush 7 rows / 1000 ms,"
                        + " Arrow input])\n+- ColumnarCalc(");
    }

    /**
     * Where Flink may move a keyed table's rows to the sink's subtasks otherwise than as they come (by the primary key,
     * or round-robin, depending on the input's parallelism, known when the job is translated), the Arrow-fed sink says
     * so and does it on the batches; at parallelism 1, or at the input's under AUTO, the rows go as they are. With
     * buffer-flush Flink's provider reports no parallelism, so under AUTO Flink never shuffles by key there.
     */
    @Test
    void whereFlinkMovesAKeyedTablesRowsTheArrowFedSinkSaysHow() {
        TableEnvironment tEnv = installed();
        String insert = "INSERT INTO latest SELECT auction, price * 2 FROM bids";
        tEnv.executeSql(upsertLatest(", 'sink.parallelism' = '1'"));
        assertThat(section(ColumnarSql.explain(tEnv, insert), "== Optimized Execution Plan =="))
                .doesNotContain("ArrowToRows(").doesNotContain("exchange=").contains("ColumnarSink(");
        tEnv.executeSql("DROP TABLE latest");
        tEnv.executeSql(upsertLatest(", 'sink.parallelism' = '3'"));
        assertThat(section(ColumnarSql.explain(tEnv, insert), "== Optimized Execution Plan =="))
                .doesNotContain("ArrowToRows(").contains("ColumnarSink(table=[default_catalog.default_database.latest],"
                        + " fields=[auction, EXPR$1], exchange=[by the primary key where Flink moves the rows (sink"
                        + " parallelism 3, table.exec.sink.keyed-shuffle AUTO)], head=[ConstraintEnforcer[NotNullEnforcer("
                        + "fields=[auction])]], encode=[");
        tEnv.getConfig().set("table.exec.sink.keyed-shuffle", "NONE");
        assertThat(section(ColumnarSql.explain(tEnv, insert), "== Optimized Execution Plan =="))
                .doesNotContain("ArrowToRows(").contains("exchange=[round-robin where Flink moves the rows (sink"
                        + " parallelism 3, table.exec.sink.keyed-shuffle NONE)]");
        tEnv.getConfig().set("table.exec.sink.keyed-shuffle", "AUTO");
        tEnv.executeSql("DROP TABLE latest");
        tEnv.executeSql(upsertLatest(", 'sink.parallelism' = '3', 'sink.buffer-flush.max-rows' = '7',"
                + " 'sink.buffer-flush.interval' = '1 s'"));
        assertThat(section(ColumnarSql.explain(tEnv, insert), "== Optimized Execution Plan =="))
                .doesNotContain("ArrowToRows(").contains("exchange=[round-robin where Flink moves the rows (sink"
                        + " parallelism 3, not reported, table.exec.sink.keyed-shuffle AUTO)]");
        tEnv.executeSql("DROP TABLE latest");
        tEnv.executeSql(upsertLatest(""));
        assertThat(section(ColumnarSql.explain(tEnv, insert), "== Optimized Execution Plan =="))
                .doesNotContain("ArrowToRows(").doesNotContain("exchange=").contains("ColumnarSink(");
        tEnv.getConfig().set("table.exec.sink.keyed-shuffle", "FORCE");
        assertThat(section(ColumnarSql.explain(tEnv, insert), "== Optimized Execution Plan =="))
                .doesNotContain("ArrowToRows(").contains("exchange=[by the primary key where Flink moves the rows"
                        + " (sink parallelism the input's, table.exec.sink.keyed-shuffle FORCE)]");
    }

    /** An {@code upsert-kafka-columnar} table {@code latest} of the latest doubled price per auction, with {@code options}. */
    private static String upsertLatest(String options) {
        return "CREATE TABLE latest (auction BIGINT, price BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka-columnar', 'topic' = 'latest', 'properties.bootstrap.servers' ="
                + " 'localhost:1', 'key.format' = 'json', 'value.format' = 'json'" + options + ")";
    }

    /**
     * The same scan into a row operator (a group aggregate, which retracts the updates' UPDATE_BEFORE rows): the edge
     * sets each row's kind from the batches' row-kind column.
     */
    @Test
    void aDebeziumScanIntoAnAggregateReachesItsRowsWithTheirKinds() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql("CREATE TABLE changes (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = 'changes', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'debezium-json',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')");
        tEnv.executeSql("CREATE TABLE totals (auction BIGINT, total BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka-columnar', 'topic' = 'totals', 'properties.bootstrap.servers' ="
                + " 'localhost:1', 'key.format' = 'json', 'value.format' = 'json')");
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO totals SELECT auction, SUM(price) FROM changes"
                + " WHERE price > 10 GROUP BY auction");
        assertThat(section(explained, "== Optimized Execution Plan ==")).contains("ColumnarCalc(")
                .contains("ArrowToRows(reason=[ROW_OPERATOR no columnar operator for this node kind], rows=[binary],"
                        + " rowKinds=[from batches])");
    }

    /**
     * The scan is decided on what the query reads, its metadata columns included: a query reading the partition
     * and one reading {@code headers} (in Flink's per-record HashMap order) both scan columnar, each with the
     * metadata it reads.
     */
    @Test
    void aHeadersColumnIsReadByTheColumnarScan() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids (", "CREATE TABLE tagged (h MAP<STRING, BYTES> METADATA FROM"
                + " 'headers' VIRTUAL, p INT METADATA FROM 'partition' VIRTUAL, "));
        tEnv.executeSql(sink("results", "auction BIGINT, p INT", "kafka-columnar"));
        tEnv.executeSql(sink("tags", "auction BIGINT, n INT", "kafka-columnar"));
        String narrow = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, p FROM tagged");
        assertThat(narrow).contains("ColumnarScan(table=[[default_catalog, default_database, tagged,")
                .contains("decode=[admitted: json value, metadata partition, bounded latest]")
                .doesNotContain("SCAN_NOT_ADMITTED");
        String headers = ColumnarSql.explain(tEnv, "INSERT INTO tags SELECT auction, CARDINALITY(h) FROM tagged");
        assertThat(headers).contains("ColumnarScan(table=[[default_catalog, default_database, tagged,")
                .contains("decode=[admitted: json value, metadata headers, bounded latest]")
                .doesNotContain("SCAN_NOT_ADMITTED");
    }

    @Test
    void aRowOperatorGetsAnEdgeThatSaysWhy() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(upsertCounts());
        String plan = tEnv.explainSql("INSERT INTO counts SELECT auction, COUNT(*) FROM bids GROUP BY auction");
        assertThat(plan).contains("ColumnarScan(").contains("ArrowToRows(").contains("reason=[ROW_OPERATOR")
                .doesNotContain("ColumnarSink(");
    }

    /**
     * The edge writes Flink's binary rows unless the session asks for views ({@code columnar-kafka.planner.edge-rows},
     * the benchmark's A/B switch); EXPLAIN says which, in the plan and in the job's operator description.
     */
    @Test
    void theEdgeWritesBinaryRowsUnlessTheSessionAsksForViews() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(upsertCounts());
        String insert = "INSERT INTO counts SELECT auction, COUNT(*) FROM bids GROUP BY auction";
        assertThat(tEnv.explainSql(insert)).contains("ArrowToRows(reason=[ROW_OPERATOR no columnar operator for this"
                + " node kind], rows=[binary])").doesNotContain("rows=[views]");
        tEnv.getConfig().set("columnar-kafka.planner.edge-rows", "VIEWS");
        assertThat(tEnv.explainSql(insert)).contains("ArrowToRows(reason=[ROW_OPERATOR no columnar operator for this"
                + " node kind], rows=[views])").doesNotContain("rows=[binary]");
    }

    /**
     * With mini-batch on, Flink puts its mini-batch assigner between the scan and the Calc; the assigner runs on
     * the batches (Flink's own operator, which forwards every element unread), so the Calc stays columnar, and the
     * local aggregate (COUNT(*) per BIGINT key) is computed on its batches, after the filter has dropped rows and
     * the projection columns.
     */
    @Test
    void withMiniBatchTheCalcAfterFlinksAssignerStaysColumnar() {
        TableEnvironment tEnv = installed();
        miniBatch(tEnv);
        tEnv.executeSql(upsertCounts());
        String explained = ColumnarSql.explain(tEnv,
                "INSERT INTO counts SELECT auction, COUNT(*) FROM bids WHERE price > 10 GROUP BY auction");
        assertThat(section(explained, "== Optimized Physical Plan =="))
                .containsPattern("ColumnarLocalGroupAggregate\\(.*local=\\[vectorised\\]\\)\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[auction\\], where=\\[>\\(price, 10\\)\\]\\)\\n"
                + "[ :]*\\+- ColumnarMiniBatchAssigner\\(interval=\\[2000ms\\], mode=\\[ProcTime\\]\\)\\n"
                + "[ :]*\\+- ColumnarScan\\(")
                .doesNotContainPattern("(?<!Columnar)MiniBatchAssigner\\(");
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("columnar MiniBatchAssigner: Flink's ProcTime assigner, 2000 ms, forwarding batches")
                .contains("columnar Calc: 1 projections, a filter")
                .contains("columnar LocalGroupAggregate: vectorised keys=[$0], aggregates=[COUNT(*)]")
                .doesNotContain("INPUT_NOT_COLUMNAR input MiniBatchAssigner");
    }

    /**
     * An assigner over rows (a stock {@code kafka} scan) stays Flink's, and so does everything after it but the sink
     * fed rows (its primary key's NOT NULL enforcer in the encode operator: {@code ColumnarRowSinkExplainTest}).
     */
    @Test
    void aMiniBatchAssignerOverRowsStaysFlinks() {
        TableEnvironment tEnv = installed();
        miniBatch(tEnv);
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids", "CREATE TABLE stock_bids").replace("kafka-columnar", "kafka"));
        tEnv.executeSql(upsertCounts());
        String explained = ColumnarSql.explain(tEnv,
                "INSERT INTO counts SELECT auction, COUNT(*) FROM stock_bids WHERE price > 10 GROUP BY auction");
        assertThat(section(explained, "== Optimized Physical Plan =="))
                .contains("MiniBatchAssigner(interval=[2000ms], mode=[ProcTime])")
                .doesNotContainPattern("Columnar(?!RowSink\\()").doesNotContain("ArrowToRows");
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("Flink MiniBatchAssigner: INPUT_NOT_COLUMNAR input TableSourceScan");
    }

    /** Mini-batch as the Nexmark benchmark runs it. */
    private static void miniBatch(TableEnvironment tEnv) {
        tEnv.getConfig().set("table.exec.mini-batch.enabled", "true");
        tEnv.getConfig().set("table.exec.mini-batch.allow-latency", "2 s");
        tEnv.getConfig().set("table.exec.mini-batch.size", "50000");
    }

    /** An upsert-kafka-columnar table of counts per auction. */
    private static String upsertCounts() {
        return sink("counts", "auction BIGINT, n BIGINT, PRIMARY KEY (auction) NOT ENFORCED", "upsert-kafka-columnar")
                .replace("'format' = 'json',", "'key.format' = 'json', 'value.format' = 'json',")
                .replace("'sink.delivery-guarantee' = 'exactly-once', ", "")
                .replace("'sink.transactional-id-prefix'", "'properties.transactional.id'");
    }

    @Test
    void aSupportedCalcIsColumnarEndToEnd() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(sink("results", "auction BIGINT, price BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv,
                "INSERT INTO results SELECT auction, price * 2 FROM bids WHERE channel IN ('apple', 'google')");
        assertThat(explained).contains("ColumnarScan(").contains("ColumnarCalc(").contains("ColumnarSink(")
                .doesNotContain("ArrowToRows(")
                .contains("columnar Calc: 2 projections, a filter");
    }

    /**
     * A CAST from a string fails the job on a value that does not parse, as the columnar calc does; with the
     * legacy cast behaviour such a value becomes null instead, so the Calc stays Flink's. TRY_CAST never
     * translates.
     */
    @Test
    void aCastFromAStringIsColumnarUnlessTheLegacyCastBehaviourTurnsFailuresIntoNulls() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(sink("results", "auction BIGINT, n INT", "kafka-columnar"));
        String query = "INSERT INTO results SELECT auction, CAST(channel AS INT) FROM bids";
        assertThat(ColumnarSql.explain(tEnv, query)).contains("ColumnarCalc(").contains("columnar Calc")
                .doesNotContain("ArrowToRows(");
        assertThat(ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, TRY_CAST(channel AS INT) FROM bids"))
                .contains("Flink Calc: EXPRESSION_NOT_TRANSLATED operator TRY_CAST");

        tEnv.getConfig().set("table.exec.legacy-cast-behaviour", "ENABLED");
        assertThat(ColumnarSql.explain(tEnv, query)).doesNotContain("ColumnarCalc(")
                .contains("Flink Calc: EXPRESSION_NOT_TRANSLATED CAST from a string with"
                        + " table.exec.legacy-cast-behaviour enabled");
    }

    /** ABS has no columnar counterpart: the Calc stays Flink's behind an edge, and so does the sink after it. */
    @Test
    void theDecisionNamesEveryNodeAndItsReason() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(sink("results", "auction BIGINT, price BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, ABS(price) FROM bids");
        assertThat(explained).contains("== Columnar Decision ==")
                .contains("columnar TableSourceScan: admitted: json value, bounded latest")
                .contains("Flink Calc: EXPRESSION_NOT_TRANSLATED operator ABS")
                .contains("Flink Sink: INPUT_NOT_COLUMNAR input Calc")
                .contains("ArrowToRows(reason=[EXPRESSION_NOT_TRANSLATED operator ABS")
                .contains("; not split: no condition to apply before the edge");
    }

    /**
     * Nexmark q14's shape: a filtered Calc whose projection calls a UDF runs whole in the columnar calc, which calls
     * the UDF itself, with Flink's generated code for the call, on the rows that passed; the select shows the call,
     * {@code flinkCode=[...]} and the decision line name the projection, and the batches go on to the columnar sink.
     */
    @Test
    void aCalcWithAUdfInItsProjectionRunsTheUdfInTheColumnarCalc() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.executeSql(sink("results", "auction BIGINT, doubled BIGINT, c BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, price * 2 AS doubled,"
                + " count_char(extra, 'c') AS c FROM bids WHERE price > 10");
        assertThat(section(explained, "== Optimized Physical Plan ==")).containsPattern("ColumnarSink\\(.*\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[auction, \\*\\(price, 2\\) AS doubled, count_char\\(extra,"
                + " 'c'\\) AS c\\], where=\\[>\\(price, 10\\)\\], flinkCode=\\[c \\(UDF count_char\\)\\]\\)\\n"
                + "[ :]*\\+- ColumnarScan\\(").doesNotContain("ArrowToRows(");
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("columnar Calc: 3 projections, a filter; Flink's generated code in the calc: c (UDF"
                        + " count_char)")
                .contains("columnar Sink:");
    }

    /**
     * Deterministic user-defined functions run in the columnar calc wherever Flink's Calc calls them: one in the
     * condition (after a built-in conjunct, so only where it is reached), one nested in a built-in call over a
     * computed argument, one beside it; no edge, and {@code flinkCode=[...]} names the condition and each projection.
     */
    @Test
    void deterministicUdfsInTheConditionAndNestedInProjectionsRunInTheColumnarCalc() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.createTemporarySystemFunction("twice", Twice.class);
        tEnv.createTemporarySystemFunction("reversed", FlinkCodeUdfs.ReverseText.class);
        tEnv.executeSql(sink("results", "auction BIGINT, c BIGINT, r STRING", "kafka-columnar"));
        assertCallsInTheColumnarCalc(tEnv, "INSERT INTO results SELECT auction, count_char(extra, 'c') + 1 AS c,"
                + " UPPER(reversed(LOWER(url))) AS r FROM bids WHERE price > 10 AND twice(bidder) > 4",
                "where (UDF twice), c (UDF count_char), r (UDF reversed)");
    }

    /**
     * Two calls of one deterministic user-defined function in one Calc (and a third in the condition) run in the
     * columnar calc, with one instance of the function for all of them as in Flink's Calc: no edge, and {@code
     * flinkCode=[...]} names each call.
     */
    @Test
    void callsOfOneDeterministicUdfInOneCalcRunInTheColumnarCalc() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.executeSql(sink("results", "auction BIGINT, c BIGINT, d BIGINT", "kafka-columnar"));
        assertCallsInTheColumnarCalc(tEnv, "INSERT INTO results SELECT auction, count_char(extra, 'c') AS c,"
                + " count_char(url, 'd') AS d FROM bids WHERE price > 10 AND count_char(url, 'x') > 0",
                "where (UDF count_char), c (UDF count_char), d (UDF count_char)");
    }

    /**
     * Asserts that {@code insert} plans the scan, the columnar calc and the columnar sink with no edge, the calc's
     * {@code flinkCode=[...]} and its decision line (3 projections, a filter) naming {@code calls}.
     */
    private static void assertCallsInTheColumnarCalc(TableEnvironment tEnv, String insert, String calls) {
        String explained = ColumnarSql.explain(tEnv, insert);
        assertThat(section(explained, "== Optimized Physical Plan ==")).containsPattern("ColumnarSink\\(.*\\n"
                + "[ :]*\\+- ColumnarCalc\\(.*" + Pattern.quote("flinkCode=[" + calls + "])") + "\\n"
                + "[ :]*\\+- ColumnarScan\\(").doesNotContain("ArrowToRows(");
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("columnar Calc: 3 projections, a filter; Flink's generated code in the calc: " + calls);
    }

    /**
     * A function called in a projection that stays in Flink's Calc (ABS has no columnar counterpart) and in one the
     * calc would run: both stay in Flink's Calc after the edge, which has one instance of it as Flink's Calc has,
     * the split saying why; when the condition calls it too, the Calc is not split.
     */
    @Test
    void allCallsOfOneUdfStayOnOneSideOfTheEdge() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.createTemporarySystemFunction("twice", Twice.class);
        tEnv.executeSql(sink("results", "auction BIGINT, c BIGINT, d BIGINT, t BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, count_char(extra, 'c') AS c,"
                + " ABS(count_char(url, 'd')) AS d, twice(auction) AS t FROM bids WHERE price > 10");
        assertThat(section(explained, "== Columnar Decision ==")).contains("columnar Calc: split: the filter and 2 of 4"
                + " projections columnar, 2 more input values to the edge; Flink's generated code in the calc: t (UDF"
                + " twice); Flink's Calc after the edge: CALC_NOT_EXACT c: calls UDF count_char, which d calls in"
                + " Flink's Calc (Flink's generated code has one instance of a function for all its calls, opened"
                + " once);"
                + " EXPRESSION_NOT_TRANSLATED d: operator ABS");

        String inCondition = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, count_char(extra, 'c') AS"
                + " c, ABS(count_char(url, 'd')) AS d, twice(auction) AS t FROM bids WHERE count_char(url, 'x') > 0");
        assertThat(section(inCondition, "== Columnar Decision ==")).contains("; not split: the condition calls UDF"
                + " count_char, which d calls in Flink's Calc (Flink's generated code has one instance of a function"
                + " for all its calls, opened once)");
        assertThat(inCondition).doesNotContain("flinkCode=[");
    }

    /**
     * A function that is not deterministic, called twice beside another call: Flink's Calc makes a row's calls in
     * turn, the calc one call for all rows before the next, and such a function may see the difference; so every
     * call of the Calc stays in Flink's Calc after the edge, the split saying why.
     */
    @Test
    void aNonDeterministicUdfCalledTwiceStaysInFlinksCalcWithTheReason() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("next_number", FlinkCodeUdfs.CallNumber.class);
        tEnv.createTemporarySystemFunction("twice", Twice.class);
        tEnv.executeSql(sink("results", "auction BIGINT, a BIGINT, b BIGINT, t BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, next_number(price) AS a,"
                + " next_number(bidder) AS b, twice(auction) AS t FROM bids WHERE price > 10");
        assertThat(section(explained, "== Columnar Decision ==")).contains("columnar Calc: split: the filter and 1 of 4"
                + " projections columnar")
                .contains("EXPRESSION_NOT_TRANSLATED a: UDF next_number (a user-defined function: only Flink's generated"
                        + " code calls it; not in the calc: 3 calls of user-defined functions in one Calc, UDF next_number"
                        + " not deterministic (Flink's Calc makes a row's calls in turn, the calc one call for all rows"
                        + " before the next))")
                .contains("EXPRESSION_NOT_TRANSLATED t: UDF twice");
        assertThat(explained).doesNotContain("flinkCode=[");
    }

    /**
     * An IN list over a UDF call in the condition arrives as a SEARCH, whose searched expression Flink's code evaluates
     * once per row; the calc's comparisons would call the function once each, so the Calc stays Flink's, the reason
     * saying why.
     */
    @Test
    void anInListOverAUdfCallInTheConditionStaysFlinksWithTheReason() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("twice", Twice.class);
        tEnv.executeSql(sink("results", "auction BIGINT, listed BOOLEAN", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, price > 20 AS listed"
                + " FROM bids WHERE twice(bidder) IN (2, 4, 6, 8)");
        assertThat(section(explained, "== Columnar Decision ==")).contains("EXPRESSION_NOT_TRANSLATED SEARCH (an IN"
                + " list or range) over UDF twice (Flink's code makes the call once per row, the calc's comparisons"
                + " once each)").contains("not split: the condition: SEARCH (an IN list or range) over UDF twice");
        assertThat(explained).doesNotContain("flinkCode=[");
    }

    /** BIGINT in, BIGINT out: deterministic (Flink's default). */
    public static final class Twice extends ScalarFunction {
        public Long eval(Long x) {
            return x == null ? null : 2 * x;
        }
    }

    /**
     * With {@code columnar-kafka.planner.calc.flink-code} off, such a Calc is split (issue #11): the columnar calc
     * applies the filter and computes the projections it admits, passing on the column the UDF reads; the edge
     * comes after the filter; Flink's Calc, its condition removed, calls the UDF on the rows that passed. EXPLAIN
     * says why.
     */
    @Test
    void withFlinkCodeOffACalcWithAUdfFiltersColumnarAndLeavesTheUdfToFlinksCalc() {
        TableEnvironment tEnv = installed();
        tEnv.getConfig().set("columnar-kafka.planner.calc.flink-code", "false");
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.executeSql(sink("results", "auction BIGINT, doubled BIGINT, c BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, price * 2 AS doubled,"
                + " count_char(extra, 'c') AS c FROM bids WHERE price > 10");
        String reason = "EXPRESSION_NOT_TRANSLATED c: UDF count_char (a user-defined function: only Flink's generated"
                + " code calls it; not in the calc: columnar-kafka.planner.calc.flink-code is false)";
        assertThat(section(explained, "== Optimized Physical Plan ==")).containsPattern("Sink\\(.*\\n"
                + "[ :]*\\+- Calc\\(select=\\[auction, doubled, count_char\\(extra, _UTF-16LE'c'\\) AS c\\]\\)\\n"
                + "[ :]*\\+- ArrowToRows\\(reason=\\[" + java.util.regex.Pattern.quote(reason) + "\\], rows=\\[binary\\]\\)\\n"
                + "[ :]*\\+- ColumnarCalc\\(select=\\[auction, \\*\\(price, 2\\) AS doubled, extra\\],"
                + " where=\\[>\\(price, 10\\)\\]\\)\\n"
                + "[ :]*\\+- ColumnarScan\\(");
        assertThat(occurrences(explained, ">(price, 10)")).as("the condition is applied once, columnar")
                .isEqualTo(2); // the physical and the execution plan
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("columnar Calc: split: the filter and 2 of 3 projections columnar, 1 more input value to"
                        + " the edge; Flink's Calc after the edge: " + reason)
                .contains("Flink Sink: INPUT_NOT_COLUMNAR input Calc");
    }

    /**
     * {@code columnar-kafka.planner.calc.split} (default true) chooses, for same-run A/B runs, between the split and
     * Flink's Calc whole behind the edge: the same Calc (its UDF left to Flink's Calc, {@code calc.flink-code} off) is
     * split by default and, with the option false, decided Flink's with its reason and the option named, its
     * condition evaluated by Flink's Calc after the edge.
     */
    @Test
    void theSplitOptionOffLeavesTheWholeCalcFlinksAndSaysSo() {
        String insert = "INSERT INTO results SELECT auction, price * 2 AS doubled, count_char(extra, 'c') AS c FROM"
                + " bids WHERE price > 10";
        TableEnvironment tEnv = installed();
        tEnv.getConfig().set("columnar-kafka.planner.calc.flink-code", "false");
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.executeSql(sink("results", "auction BIGINT, doubled BIGINT, c BIGINT", "kafka-columnar"));

        String byDefault = ColumnarSql.explain(tEnv, insert);
        NodeDecision split = calcDecision(tEnv);
        assertThat(split.isColumnar()).as(split.describe()).isTrue();
        assertThat(split.kind()).isEqualTo(NodeKind.SPLIT_CALC);
        assertThat(byDefault).contains("ColumnarCalc(");

        tEnv.getConfig().set("columnar-kafka.planner.calc.split", "false");
        String off = ColumnarSql.explain(tEnv, insert);
        NodeDecision whole = calcDecision(tEnv);
        String reason = "EXPRESSION_NOT_TRANSLATED UDF count_char (a user-defined function: only Flink's generated"
                + " code calls it; not in the calc: columnar-kafka.planner.calc.flink-code is false); not split:"
                + " columnar-kafka.planner.calc.split is false";
        assertThat(whole.isColumnar()).as(whole.describe()).isFalse();
        assertThat(whole.kind()).isEqualTo(NodeKind.CALC);
        assertThat(whole.reason()).isEqualTo(Reason.EXPRESSION_NOT_TRANSLATED);
        assertThat(section(off, "== Optimized Physical Plan ==")).doesNotContain("ColumnarCalc(").containsPattern(
                "[ :]*\\+- Calc\\(select=\\[[^\\n]*count_char[^\\n]*where=\\[>\\(price, 10\\)\\]\\)\\n"
                        + "[ :]*\\+- ArrowToRows\\(reason=\\[" + java.util.regex.Pattern.quote(reason) + "\\]");
        assertThat(section(off, "== Columnar Decision ==")).contains("Flink Calc: " + reason);
    }

    /** The decision for the plan's one Calc, as the stage made it for the statement explained last. */
    private static NodeDecision calcDecision(TableEnvironment tEnv) {
        List<NodeDecision> calcs = ColumnarSql.lastDecision(tEnv).decisions().stream()
                .filter(d -> d.node().getRelTypeName().equals("StreamPhysicalCalc")).toList();
        assertThat(calcs).hasSize(1);
        return calcs.get(0);
    }

    /**
     * The split needs a condition the columnar calc runs as Flink does: a non-deterministic condition, or one it
     * does not translate, keeps the whole Calc Flink's, and the reason says why it was not split.
     */
    @Test
    void aCalcWhoseConditionIsNotAdmittedOrNotDeterministicStaysFlinksWhole() {
        TableEnvironment tEnv = installed();
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        tEnv.executeSql(sink("results", "auction BIGINT, c BIGINT", "kafka-columnar"));
        String untranslated = ColumnarSql.explain(tEnv,
                "INSERT INTO results SELECT auction, count_char(extra, 'c') FROM bids WHERE ABS(price) > 10");
        assertThat(untranslated).doesNotContain("ColumnarCalc(")
                .containsPattern("Flink Calc: EXPRESSION_NOT_TRANSLATED operator ABS .*; not split: the condition:"
                        + " operator ABS");
        String random = ColumnarSql.explain(tEnv,
                "INSERT INTO results SELECT auction, count_char(extra, 'c') FROM bids WHERE RAND() < 0.5");
        assertThat(random).doesNotContain("ColumnarCalc(")
                .contains("; not split: the condition is not deterministic");
    }

    /** The SQL client's way: a session option, and the kafka-columnar factories install the stage. */
    @Test
    void theSessionOptionInstallsTheStageWithoutJava() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("columnar-kafka.planner.enabled", "true"); // what the SQL client's SET does
        tEnv.executeSql(BIDS);
        tEnv.executeSql(sink("results", "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                + " `dateTime` TIMESTAMP(3), extra STRING", "kafka-columnar"));
        assertThat(tEnv.explainSql("INSERT INTO results SELECT * FROM bids")).contains("ColumnarScan(")
                .contains("ColumnarSink(");
    }

    @Test
    void withoutTheSessionOptionOrInstallThePlanIsFlinks() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(BIDS);
        tEnv.executeSql(sink("results", "auction BIGINT, price BIGINT", "kafka-columnar"));
        assertThat(tEnv.explainSql("INSERT INTO results SELECT auction, price FROM bids")).doesNotContain("Columnar")
                .doesNotContain("ArrowToRows");
    }

    @Test
    void aStockKafkaScanStaysFlinks() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids", "CREATE TABLE stock_bids").replace("kafka-columnar", "kafka"));
        tEnv.executeSql(sink("results", "auction BIGINT, price BIGINT", "kafka-columnar"));
        String plan = tEnv.explainSql("INSERT INTO results SELECT auction, price FROM stock_bids");
        // Only the kafka-columnar sink is the stage's: a row sink taking in Flink's Calc over the rows.
        assertThat(plan).doesNotContainPattern("Columnar(?!RowSink\\()").doesNotContain("ArrowToRows")
                .contains("calc=[Calc(select=[auction, price])]");
    }

    /**
     * Two branches read {@code bids}, each with columns of its own: as Flink's source reuse would, the stage
     * unites them into one scan of the union of the columns, each branch's projection and filter a columnar Calc
     * after it, and Flink's sub-plan reuse keeps that one {@code ColumnarScan} for both branches.
     */
    @Test
    void twoBranchesOfATableShareOneColumnarScanOfTheUnionOfTheirColumns() {
        TableEnvironment tEnv = installed();
        tEnv.executeSql(sink("results", "auction BIGINT, n BIGINT", "kafka-columnar"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, price FROM bids"
                + " WHERE price > 10 UNION ALL SELECT auction, bidder FROM bids WHERE channel = 'apple'");
        String execution = section(explained, "== Optimized Execution Plan ==");
        assertThat(occurrences(execution, "ColumnarScan(")).as(execution).isEqualTo(1);
        assertThat(execution).contains("fields=[auction, bidder, price, channel]").contains("Reused(reference_id=")
                .contains("ColumnarCalc(select=[auction, price], where=[>(price, 10)])")
                .contains("ColumnarCalc(select=[auction, bidder], where=[=(channel, 'apple')])");
        assertThat(occurrences(execution, "ColumnarCalc(")).isEqualTo(2);
    }

    /** With source reuse off, Flink keeps one scan per branch, and so does the stage. */
    @Test
    void withSourceReuseOffEachBranchKeepsItsScan() {
        TableEnvironment tEnv = installed();
        tEnv.getConfig().set("table.optimizer.reuse-source-enabled", "false");
        tEnv.executeSql(sink("results", "auction BIGINT, n BIGINT", "kafka-columnar"));
        String plan = tEnv.explainSql("INSERT INTO results SELECT auction, price FROM bids WHERE price > 10"
                + " UNION ALL SELECT auction, price FROM bids WHERE channel = 'apple'");
        String execution = section(plan, "== Optimized Execution Plan ==");
        assertThat(occurrences(execution, "ColumnarScan(")).as(execution).isEqualTo(2);
        assertThat(execution).doesNotContain("Reused(");
    }

    /**
     * Two branches compute the same windowed count over the same filter (Nexmark q5's shape): Flink's sub-plan
     * reuse merges the equal columnar Calcs and the row operators above them, so the plan holds as many window
     * aggregates as Flink's own plan of the query (one per distinct aggregate), not one per branch.
     */
    @Test
    void equalBranchesShareOneColumnarCalcAndTheOperatorsAboveItAsFlinksPlanDoes() {
        String query = "INSERT INTO results SELECT A.auction, A.num, 0 FROM (SELECT auction, COUNT(*) AS num,"
                + " window_start AS s, window_end AS e FROM TABLE(HOP(TABLE cheap, DESCRIPTOR(`dateTime`),"
                + " INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end) A"
                + " JOIN (SELECT MAX(num) AS maxn, s, e FROM (SELECT COUNT(*) AS num, window_start AS s,"
                + " window_end AS e FROM TABLE(HOP(TABLE cheap, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND,"
                + " INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end) GROUP BY s, e) M"
                + " ON A.s = M.s AND A.e = M.e AND A.num >= M.maxn";
        String columnar = section(tEnvWithCheapBids(true).explainSql(query), "== Optimized Execution Plan ==");
        String flink = section(tEnvWithCheapBids(false).explainSql(query), "== Optimized Execution Plan ==");
        String aggregate = "GlobalWindowAggregate(groupBy=[auction]";
        assertThat(occurrences(flink, aggregate)).as(flink).isEqualTo(1);
        assertThat(occurrences(columnar, aggregate)).as(columnar).isEqualTo(1);
        assertThat(occurrences(columnar, "ColumnarCalc(")).as(columnar).isEqualTo(1);
        assertThat(columnar).contains("ColumnarCalc(select=[auction, dateTime], where=[>(price, 10)])")
                .contains("ColumnarLocalWindowAggregate(").contains("Reused(reference_id=");
        assertThat(occurrences(columnar, "ColumnarLocalWindowAggregate(")).as(columnar).isEqualTo(1);
    }

    /**
     * A two-phase window aggregate over a columnar Calc: the local phase is Flink's operator reading the batches
     * ({@code ColumnarLocalWindowAggregate}, Flink's attributes), no edge before it, and Flink's exchange and global
     * phase after it on its rows.
     */
    @Test
    void theLocalPhaseOfAWindowAggregateReadsTheColumnarCalcsBatches() {
        TableEnvironment tEnv = tEnvWithCheapBids(true);
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, COUNT(*), 0 FROM"
                + " TABLE(HOP(TABLE cheap, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))"
                + " GROUP BY auction, window_start, window_end");
        assertThat(section(explained, "== Optimized Physical Plan ==")).containsPattern(
                "GlobalWindowAggregate\\(.*\\n[ :]*\\+- Exchange\\(distribution=\\[hash\\[auction\\]\\]\\)\\n"
                + "[ :]*\\+- ColumnarLocalWindowAggregate\\(groupBy=\\[auction\\], window=\\[HOP\\(time_col=\\[dateTime\\],"
                + " size=\\[10 s\\], slide=\\[2 s\\]\\)\\], select=\\[auction, COUNT\\(\\*\\) AS count1\\$0,"
                + " slice_end\\('w\\$\\) AS \\$slice_end\\], local=\\[vectorised\\]\\)\\n[ :]*\\+- ColumnarCalc\\(")
                .doesNotContain("ArrowToRows(");
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("columnar LocalWindowAggregate: vectorised keys=[$0], slices=[2000 ms, offset 0 ms],"
                        + " aggregates=[COUNT(*)]")
                .contains("Flink Exchange: ROW_OPERATOR");
    }

    /** Over rows (a stock {@code kafka} scan) the local phase stays Flink's, with its reason. */
    @Test
    void aLocalWindowAggregateOverRowsStaysFlinks() {
        TableEnvironment tEnv = tEnvWithCheapBids(true);
        tEnv.executeSql(BIDS.replace("CREATE TABLE bids", "CREATE TABLE stock_bids").replace("kafka-columnar", "kafka")
                .replace("extra STRING)", "extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND)"));
        String explained = ColumnarSql.explain(tEnv, "INSERT INTO results SELECT auction, COUNT(*), 0 FROM"
                + " TABLE(TUMBLE(TABLE stock_bids, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND))"
                + " GROUP BY auction, window_start, window_end");
        assertThat(section(explained, "== Optimized Physical Plan ==")).contains("LocalWindowAggregate(")
                .doesNotContainPattern("Columnar(?!RowSink\\()");
        assertThat(section(explained, "== Columnar Decision =="))
                .contains("Flink LocalWindowAggregate: INPUT_NOT_COLUMNAR input Calc");
    }

    /** With sub-plan reuse off, Flink keeps each branch's operators, and so does the stage. */
    @Test
    void withSubPlanReuseOffEachBranchKeepsItsColumnarCalc() {
        TableEnvironment tEnv = tEnvWithCheapBids(true);
        tEnv.getConfig().set("table.optimizer.reuse-sub-plan-enabled", "false");
        String execution = section(tEnv.explainSql("INSERT INTO results SELECT auction, COUNT(*), 0 FROM"
                + " TABLE(TUMBLE(TABLE cheap, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND))"
                + " GROUP BY auction, window_start, window_end UNION ALL SELECT auction, COUNT(*), 1 FROM"
                + " TABLE(TUMBLE(TABLE cheap, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND))"
                + " GROUP BY auction, window_start, window_end"), "== Optimized Execution Plan ==");
        assertThat(occurrences(execution, "ColumnarCalc(")).as(execution).isEqualTo(2);
        assertThat(execution).doesNotContain("Reused(");
    }

    /** Watermarked bids, a view of the cheap ones' auction and time, and a result table; the stage installed or not. */
    private static TableEnvironment tEnvWithCheapBids(boolean install) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        if (install) {
            InstallResult result = ColumnarSql.install(tEnv);
            assertThat(result.status()).as(result.message()).isEqualTo(InstallStatus.INSTALLED);
        }
        tEnv.executeSql(BIDS.replace("extra STRING)",
                "extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND)"));
        tEnv.executeSql("CREATE VIEW cheap AS SELECT auction, `dateTime` FROM bids WHERE price > 10");
        tEnv.executeSql(sink("results", "auction BIGINT, num BIGINT, b INT", "kafka-columnar"));
        return tEnv;
    }

    static String section(String explained, String title) {
        int start = explained.indexOf(title);
        assertThat(start).as("EXPLAIN has %s", title).isNotNegative();
        int end = explained.indexOf("\n== ", start + title.length());
        return end < 0 ? explained.substring(start) : explained.substring(start, end);
    }

    static int occurrences(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
