package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.flink.testing.ArrowMemoryChecks;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.table.runtime.operators.sink.constraint.EnforcerException;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ColumnarRowSink} over a real broker: Flink's sink node replaced by the encode operator running Flink's
 * constraint enforcer and rowtime step, against stock {@code kafka} / {@code upsert-kafka} (Flink's sink node and
 * Flink's serializers) on the same events: the same final upsert state, the same bytes, the same rows dropped, the
 * same failure. Every columnar run asserts from EXPLAIN that the row sink was planned; the Arrow allocators are
 * back at zero after each job, also after a failed one.
 */
class ColumnarRowSinkParityITCase {
    private static final int PARALLELISM = 2;
    private static final long EVENTS = 20_000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(PARALLELISM);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static NexmarkRuns runs;

    /** Every event's person name, null for a bid or an auction, into a NOT NULL column, behind Flink's Calc (ABS). */
    private static final String NAMES = "CREATE TABLE names (event_type INT, name STRING NOT NULL, a INT)"
            + " WITH (${SINK});\n"
            + "INSERT INTO names SELECT event_type, person.name, ABS(event_type) FROM nexmark;";

    /** As {@link #NAMES}, with a columnar Calc ({@code +}): the Arrow-fed sink runs Flink's NOT NULL enforcer. */
    private static final String COLUMNAR_NAMES = NAMES.replace("ABS(event_type)", "event_type + 1");

    /** Flink's NOT NULL enforcer of {@link #NAMES}' sink, as EXPLAIN shows it in a columnar sink node. */
    private static final String NOT_NULL_HEAD = "head=[ConstraintEnforcer[NotNullEnforcer(fields=[name])]]";

    @BeforeAll
    static void fillEvents() {
        KAFKA.broker().createTopic("row_sink_events", PARALLELISM);
        NexmarkTopic.fill(KAFKA.broker().bootstrapServers(), "row_sink_events", PARALLELISM,
                new NexmarkGenerator(NexmarkConfig.defaults(11)), EVENTS);
        runs = new NexmarkRuns(KAFKA.broker(), "row_sink_events");
    }

    /**
     * q18 (a Deduplicate's last bid per bidder and auction) and q19 (a Rank's top 10 bids per auction) into {@code
     * upsert-kafka-columnar}, with the suite's watermark, so Flink's node would run the primary key's NOT NULL
     * enforcer and the rowtime inserter: the final value per key equals stock's (q19 without the columns a tie on
     * price leaves open, as {@code NexmarkColumnarParityITCase} compares it).
     */
    @ParameterizedTest
    @ValueSource(strings = {"q18", "q19"})
    void rankAndDeduplicateIntoAnUpsertTableEqualStock(String query) throws Exception {
        String script = NexmarkRuns.resource(query + ".sql");
        List<String> openOnTie = query.equals("q19")
                ? List.of("bidder", "channel", "url", "dateTime", "extra") : List.of();
        NexmarkRuns.Run stock = runs.run(query, script, false, true, PARALLELISM, true);
        NexmarkRuns.Run columnar = runs.run(query, script, true, true, PARALLELISM, true);
        Map<String, String> expected = runs.finalValuePerKey(stock.topic(), openOnTie);
        assertThat(expected).as("stock's final result of %s", query).hasSizeGreaterThan(100);
        assertThat(runs.finalValuePerKey(columnar.topic(), openOnTie)).as("columnar final result of %s", query)
                .isEqualTo(expected);
        assertThat(execution(columnar.explain())).containsPattern("ColumnarRowSink\\(table=\\[[^\\n]*, calc=\\[Calc\\("
                + "select=\\[[^\\n]*\\)\\], head=\\[ConstraintEnforcer\\[NotNullEnforcer\\(fields=\\[[^\\n]*\\]\\)\\],"
                + " StreamRecordTimestampInserter\\(rowtime field: \\d+\\)\\]")
                .doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(table=").doesNotContainPattern("\\+- Calc\\(");
    }

    /**
     * A Calc over rows (Flink's {@code kafka} scan, in both variants) that filters and computes and reorders the
     * columns, into an append table Flink's sink node adds no step for: the row sink takes the Calc in (so its
     * condition and projections are Flink's generated code in the encode operator); the committed bytes equal
     * stock's, per partition in order, and the condition dropped rows.
     */
    @Test
    void aFilteringCalcOverRowsTakenInWritesStocksBytes() throws Exception {
        String script = "CREATE TABLE row_events (event_type INT, bid ROW<auction BIGINT, price BIGINT, channel STRING,"
                + " url STRING>) WITH (${ROW_SOURCE});\n"
                + "CREATE TABLE priced (cents BIGINT, channel STRING, auction BIGINT, cheap BOOLEAN, url_length INT)"
                + " WITH (${SINK});\n"
                + "INSERT INTO priced SELECT bid.price * 100, UPPER(bid.channel), bid.auction, bid.price < 1000,"
                + " CHAR_LENGTH(bid.url) FROM row_events WHERE event_type = 2 AND MOD(bid.auction, 3) <> 0;";
        List<String> expected = bytesEqualStock(runs, "priced", script, "calc=[Calc(select=[(bid.price * 100)");
        assertThat(expected).as("the bids the condition keeps: some, not all").hasSizeGreaterThan(1000)
                .hasSizeLessThan(bids() - 1000);
    }

    /**
     * Updates and deletes through a Calc taken in: an upsert topic's changelog (the connectors' row scans, whose rows
     * carry kinds: a tombstone is a DELETE row; Flink 2.2 adds no {@code ChangelogNormalize} before an upsert sink of
     * the same key) through a computing Calc into {@code upsert-kafka-columnar}: each row keeps its kind, a DELETE is
     * a tombstone; the final value per key equals stock's, some keys deleted. With {@code sink.buffer-flush.*} the
     * reducing buffer keeps the latest row per key past the call, so it must hold a copy of the Calc's output row,
     * which the Calc refills.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void updatesAndDeletesThroughACalcTakenInEqualStock(boolean buffered) throws Exception {
        String topic = "row_kind_changes_" + buffered;
        KAFKA.broker().createTopic(topic, PARALLELISM);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            int key = i % 40;
            String value = i % 7 == 3 ? null : "{\"id\": " + key + ", \"name\": \"n" + (i % 9) + "\", \"amount\": "
                    + i + "}";
            records.add(new ProducerRecord<>(topic, key % PARALLELISM, utf8("{\"id\": " + key + "}"), utf8(value)));
        }
        KAFKA.broker().produce(records);
        String script = "CREATE TABLE changes (id BIGINT, name STRING, amount BIGINT, PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('connector' = '${UPSERT}', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + KAFKA.broker().bootstrapServers() + "', 'properties.group.id' = '${UPSERT}',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'value.format' = 'json');\n"
                + "CREATE TABLE labelled (id BIGINT, label STRING, doubled BIGINT, PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH (${SINK}" + (buffered ? ", 'sink.buffer-flush.max-rows' = '7',"
                        + " 'sink.buffer-flush.interval' = '1 s'" : "") + ");\n"
                + "INSERT INTO labelled SELECT id, CONCAT(UPPER(name), '-', CAST(amount AS STRING)), amount * 2"
                + " FROM changes;";
        NexmarkRuns.Run stock = runs.run("labelled", script.replace("${UPSERT}", "upsert-kafka"), false, true,
                PARALLELISM);
        NexmarkRuns.Run columnar = runs.run("labelled", script.replace("${UPSERT}", "upsert-kafka-columnar"), true,
                true, PARALLELISM);
        assertThat(execution(columnar.explain())).containsPattern("ColumnarRowSink\\([^\\n]*calc=\\[Calc\\(select=\\[id,"
                + " CONCAT\\([^\\n]*\\n[ :]*\\+- TableSourceScan\\(").doesNotContainPattern("\\+- Calc\\(");
        Map<String, String> expected = runs.finalValuePerKey(stock.topic());
        assertThat(expected).as("every key").hasSize(40);
        assertThat(expected.values()).as("keys whose last record is a tombstone").contains("null")
                .as("keys with a value").anyMatch(v -> !v.equals("null"));
        assertThat(runs.finalValuePerKey(columnar.topic())).isEqualTo(expected);
    }

    /**
     * A CAST the Calc taken in fails on: the job fails with Flink's exception and message, as stock's does (one
     * channel only passes the condition, so whichever row fails first, the message names it).
     */
    @Test
    void aFailingCastInACalcTakenInFailsAsStocks() throws Exception {
        String script = "CREATE TABLE row_events (event_type INT, bid ROW<channel STRING>) WITH (${ROW_SOURCE});\n"
                + "CREATE TABLE channel_numbers (n INT) WITH (${SINK});\n"
                + "INSERT INTO channel_numbers SELECT CAST(bid.channel AS INT) FROM row_events"
                + " WHERE event_type = 2 AND bid.channel = 'Google';";
        String stock = castFailure(script, false);
        String columnar = castFailure(script, true);
        assertThat(stock).as("Flink's failure").contains("'Google'");
        assertThat(columnar).isEqualTo(stock);
    }

    private static String castFailure(String script, boolean columnar) throws Exception {
        NexmarkRuns.Started run = runs.start("channel_numbers", script, columnar, false, PARALLELISM,
                SinkJobs.environment(0), 500, false);
        if (columnar) {
            assertThat(execution(run.explain())).contains("ColumnarRowSink(").contains("calc=[Calc(select=[CAST(")
                    .doesNotContainPattern("\\+- Calc\\(");
        }
        Throwable thrown = catchThrowable(() -> run.job().await());
        ArrowMemoryChecks.assertReleased();
        assertThat(thrown).as("the job fails").isNotNull();
        Throwable root = thrown;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }

    private static int bids() {
        return (int) (EVENTS * 46 / 50);
    }

    private static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A null into a NOT NULL column with Flink's default enforcer (ERROR): the job fails with Flink's message, behind
     * Flink's Calc (the row sink runs the enforcer) and, {@code arrowFed}, behind a columnar Calc (the Arrow-fed
     * {@code ColumnarSink} runs it on the batches, Flink's enforcer throwing on the row it finds).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aNullInANotNullColumnFailsWithFlinksMessage(boolean arrowFed) throws Exception {
        String script = arrowFed ? COLUMNAR_NAMES : NAMES;
        String stock = failure(false, script, arrowFed);
        String columnar = failure(true, script, arrowFed);
        assertThat(stock).startsWith("Column 'name' is NOT NULL, however, a null value is being written into it.");
        assertThat(columnar).isEqualTo(stock);
    }

    /**
     * Runs {@code script}, which must fail, and returns Flink's enforcer's message; the columnar plan has the row sink
     * running the enforcer, or, {@code arrowFed}, the Arrow-fed sink.
     */
    private static String failure(boolean columnar, String script, boolean arrowFed) throws Exception {
        NexmarkRuns.Started run = runs.start("names_error", script, columnar, false, PARALLELISM,
                SinkJobs.environment(0), 500, false);
        if (columnar && arrowFed) {
            assertArrowSink(run.explain(), NOT_NULL_HEAD);
        } else if (columnar) {
            assertRowSink(run.explain(), NOT_NULL_HEAD);
        }
        Throwable thrown = catchThrowable(() -> run.job().await());
        ArrowMemoryChecks.assertReleased();
        return ExceptionUtils.findThrowable(thrown, EnforcerException.class)
                .orElseThrow(() -> new AssertionError("no EnforcerException in the job's failure", thrown))
                .getMessage();
    }

    /** With {@code not-null-enforcer=DROP} the same rows are dropped: the committed bytes equal stock's. */
    @Test
    void withDropTheSameRowsAreDropped() throws Exception {
        NexmarkRuns dropping = runs.withOption("table.exec.sink.not-null-enforcer", "DROP");
        List<String> expected = bytesEqualStock(dropping, "names_drop", NAMES,
                NOT_NULL_HEAD);
        assertThat(expected).as("only the people are written").hasSizeBetween(100, (int) EVENTS / 10);
    }

    /** Over a columnar Calc with {@code not-null-enforcer=DROP}: the Arrow-fed sink drops the rows Flink drops. */
    @Test
    void withDropTheArrowFedSinkDropsTheSameRows() throws Exception {
        NexmarkRuns dropping = runs.withOption("table.exec.sink.not-null-enforcer", "DROP");
        List<String> expected = arrowSinkBytesEqualStock(dropping, "names_drop_arrow", COLUMNAR_NAMES);
        assertThat(expected).as("only the people are written").hasSizeBetween(100, (int) EVENTS / 10);
    }

    /**
     * Over a columnar Calc that keeps the people only (ERROR): the nulls of the rows its filter dropped are no
     * error, as those rows never reach Flink's enforcer.
     */
    @Test
    void nullsInRowsAColumnarFilterDroppedAreNoError() throws Exception {
        String script = COLUMNAR_NAMES.replace("FROM nexmark;", "FROM nexmark WHERE event_type = 0;");
        List<String> expected = arrowSinkBytesEqualStock(runs, "names_people", script);
        assertThat(expected).as("only the people are written").hasSizeBetween(100, (int) EVENTS / 10);
    }

    /**
     * An insert-only columnar query into {@code upsert-kafka-columnar}: the Arrow-fed sink, which runs the primary
     * key's NOT NULL enforcer on the batches and writes each row under its key; the committed records equal stock's,
     * as a multiset: two subtasks write each key's bids (Flink shuffles by key only where the sink's parallelism
     * differs), so which one is a key's last differs from run to run in stock Flink too.
     */
    @Test
    void insertsIntoAnUpsertTableGoThroughTheArrowFedSink() throws Exception {
        String script = "CREATE TABLE latest_price (auction BIGINT, price BIGINT, bidder BIGINT,"
                + " PRIMARY KEY (auction) NOT ENFORCED) WITH (${SINK});\n"
                + "INSERT INTO latest_price SELECT bid.auction, bid.price * 2, bid.bidder FROM nexmark"
                + " WHERE event_type = 2;";
        NexmarkRuns.Run stock = runs.run("latest_price", script, false, true, PARALLELISM);
        NexmarkRuns.Run columnar = runs.run("latest_price", script, true, true, PARALLELISM);
        assertThat(execution(columnar.explain()))
                .containsPattern("ColumnarSink\\(table=[^\\n]*"
                        + Pattern.quote("head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction])]]"))
                .contains("ColumnarCalc(").doesNotContain("ArrowToRows(").doesNotContain("ColumnarRowSink(");
        List<String> expected = new ArrayList<>(runs.records(stock.topic()));
        List<String> actual = new ArrayList<>(runs.records(columnar.topic()));
        expected.sort(null);
        actual.sort(null);
        assertThat(expected).as("every bid written").hasSizeGreaterThan(1000);
        assertThat(actual).isEqualTo(expected);
    }

    /**
     * A changelog value format fed a columnar Calc's inserts (the Arrow-fed sink writes every row as an INSERT, no
     * row-kind column): the committed bytes equal those of Flink's serializer of the format, per partition in order.
     * maxwell-json here (debezium-json and canal-json fed a changelog: {@code ChangelogPlanParityITCase}); the four
     * formats' encoders are compared with Flink's serializers in the format module's {@code ChangelogJsonParityTest}.
     */
    @Test
    void insertsIntoAChangelogFormatGoThroughTheArrowFedSink() throws Exception {
        String format = "maxwell-json";
        String name = format.replace("-json", "_inserts");
        String script = "CREATE TABLE json_bids (auction BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3),"
                + " extra STRING) WITH (${SINK});\n"
                + "CREATE TABLE " + name + " WITH ('format' = '" + format + "') LIKE json_bids (OVERWRITING OPTIONS);\n"
                + "INSERT INTO " + name + " SELECT bid.auction, bid.price * 2, bid.channel, bid.`dateTime`, bid.extra"
                + " FROM nexmark WHERE event_type = 2;";
        List<String> expected = arrowSinkBytesEqualStock(runs, name, script,
                "encode=[admitted: " + format + " value, fixed partitioner, Arrow input]");
        assertThat(expected).as("every bid written").hasSizeGreaterThan(1000);
    }

    /**
     * Runs {@code script} both ways; the committed records, per partition in order, equal; returns them. The columnar
     * plan writes through the Arrow-fed {@code ColumnarSink} running Flink's NOT NULL enforcer, no edge to rows.
     */
    private static List<String> arrowSinkBytesEqualStock(NexmarkRuns runs, String name, String script)
            throws Exception {
        return arrowSinkBytesEqualStock(runs, name, script, NOT_NULL_HEAD);
    }

    /** As above, the {@code ColumnarSink} showing {@code shown} (its head or its encoders). */
    private static List<String> arrowSinkBytesEqualStock(NexmarkRuns runs, String name, String script, String shown)
            throws Exception {
        NexmarkRuns.Run stock = runs.run(name, script, false, false, PARALLELISM);
        NexmarkRuns.Run columnar = runs.run(name, script, true, false, PARALLELISM);
        assertArrowSink(columnar.explain(), shown);
        List<String> expected = runs.records(stock.topic());
        assertThat(runs.records(columnar.topic())).as("columnar output of %s vs stock, %d records", name,
                expected.size()).isEqualTo(expected);
        return expected;
    }

    private static void assertArrowSink(String explain, String shown) {
        assertThat(execution(explain)).containsPattern("ColumnarSink\\(table=[^\\n]*" + Pattern.quote(shown))
                .contains("ColumnarCalc(").doesNotContain("ArrowToRows(").doesNotContain("ColumnarRowSink(");
    }

    /**
     * With {@code type-length-enforcer=TRIM_PAD}: the events read under narrower types than their values (a
     * connector checks no length), so no CAST of the planner's trims or pads them and Flink's enforcer does: a
     * VARCHAR(3) channel trimmed, a CHAR(40) extra padded, as Flink's node does (behind Flink's Calc of ABS, the row
     * sink; Flink's default, IGNORE, writes other bytes, so the enforcer ran).
     */
    @Test
    void withTrimPadCharAndVarcharAreTrimmedAndPaddedAsFlinkDoes() throws Exception {
        String script = narrowChannels("ABS(bid.price)");
        NexmarkRuns trimPad = runs.withOption("table.exec.sink.type-length-enforcer", "TRIM_PAD");
        List<String> expected = bytesEqualStock(trimPad, "channels", script,
                "head=[ConstraintEnforcer[LengthEnforcer(fields=[channel, extra])]]");
        assertThat(expected).hasSizeGreaterThan(1000);
        List<String> untouched = runs.records(runs.run("channels_ignored", script, false, false, PARALLELISM).topic());
        assertThat(untouched).as("Flink's default (IGNORE) writes other bytes: the enforcer changed rows")
                .hasSameSizeAs(expected).isNotEqualTo(expected);
    }

    /**
     * The same enforcer over a columnar Calc: the Arrow-fed {@code ColumnarSink} does not check rows, so Flink's sink
     * node stays behind an edge, with the reason, and the bytes equal stock's.
     */
    @Test
    void aColumnarInputIntoASinkWithConstraintsKeepsFlinksSinkNode() throws Exception {
        NexmarkRuns trimPad = runs.withOption("table.exec.sink.type-length-enforcer", "TRIM_PAD");
        String script = narrowChannels("bid.price");
        NexmarkRuns.Run stock = trimPad.run("channels_columnar", script, false, false, PARALLELISM);
        NexmarkRuns.Run columnar = trimPad.run("channels_columnar", script, true, false, PARALLELISM);
        assertThat(execution(columnar.explain())).contains("ColumnarCalc(").doesNotContain("ColumnarSink(")
                .doesNotContain("ColumnarRowSink(").contains("ArrowToRows(reason=[SINK_NOT_ADMITTED Flink's sink node"
                        + " checks each row beyond NOT NULL:"
                        + " ConstraintEnforcer[LengthEnforcer(fields=[channel, extra])]]");
        List<String> expected = runs.records(stock.topic());
        assertThat(expected).hasSizeGreaterThan(1000);
        assertThat(runs.records(columnar.topic())).isEqualTo(expected);
    }

    /** Bids read as VARCHAR(3) channels and CHAR(40) extras into columns of those types, with {@code price}. */
    private static String narrowChannels(String price) {
        return "CREATE TABLE narrow_bids (event_type INT, bid ROW<channel VARCHAR(3), extra CHAR(40), price BIGINT>)"
                + " WITH (${SOURCE});\n"
                + "CREATE TABLE channels (event_type INT, channel VARCHAR(3), extra CHAR(40), price BIGINT)"
                + " WITH (${SINK});\n"
                + "INSERT INTO channels SELECT event_type, bid.channel, bid.extra, " + price + " FROM narrow_bids"
                + " WHERE event_type = 2;";
    }

    /**
     * Runs {@code script} both ways; the committed records, per partition in order, equal; returns them. The columnar
     * plan has a row sink showing {@code shown} (its head or its Calc).
     */
    private static List<String> bytesEqualStock(NexmarkRuns runs, String name, String script, String shown)
            throws Exception {
        NexmarkRuns.Run stock = runs.run(name, script, false, false, PARALLELISM);
        NexmarkRuns.Run columnar = runs.run(name, script, true, false, PARALLELISM);
        assertRowSink(columnar.explain(), shown);
        List<String> expected = runs.records(stock.topic());
        assertThat(runs.records(columnar.topic())).as("columnar output of %s vs stock, %d records", name,
                expected.size()).isEqualTo(expected);
        return expected;
    }

    private static void assertRowSink(String explain, String shown) {
        assertThat(execution(explain)).contains("ColumnarRowSink(").contains(shown)
                .doesNotContainPattern("(?<!Columnar(Row)?)Sink\\(table=");
    }

    private static String execution(String explain) {
        return explain.substring(explain.indexOf("== Optimized Execution Plan =="));
    }
}
