package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.FlinkJson;
import io.columnarkafka.bench.JvmWarmUp;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkTopic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One small matrix cell end to end: a few thousand generated events in a topic, q0 read bounded and written
 * EXACTLY_ONCE through the columnar sink, the result read back read_committed. The expected result does not
 * come from the run: it is every generated bid's (auction, bidder, price, dateTime, extra) as Flink's own
 * {@code json} serializer writes it. (The stock variant runs in the matrix, {@code bin/bench-nexmark}; one
 * cell keeps this check short.) And q2's floor cell ({@code --floor on}): its table filled by stock Flink, its job
 * writing exactly the bids q2 keeps, each as Flink's serializer writes it.
 */
class NexmarkCellTest {
    private static final long EVENTS = 3000;
    private static final String INPUT = "nexmark-cell-test-input";
    private static KafkaBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void fillInput() {
        broker = KafkaBroker.builder().defaultPartitions(2).startupTimeout(Duration.ofMinutes(5)).start();
        broker.createTopic(INPUT, 2);
        NexmarkTopic.fill(broker.bootstrapServers(), INPUT, 2, new NexmarkGenerator(NexmarkConfig.defaults(5)), EVENTS);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void q0WritesEveryBidExactlyOnceThroughTheColumnarSink() throws Exception {
        OutputDigest expected = expectedQ0();
        assertThat(expected.entries()).isEqualTo(EVENTS / 50 * 46);

        Variant variant = Variant.COLUMNAR;
        String output = "nexmark-cell-test-q0-" + variant.letter();
        broker.createTopic(output, 2);
        broker.createTopic(JvmWarmUp.own(output), 2);
        // With the JVM warm-up (--jvm-warm-up on): the job runs twice in the cell's JVM, the first into its own topic.
        CellSpec spec = new CellSpec(NexmarkQuery.Q0, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, EVENTS, 2, 500, broker.bootstrapServers(),
                INPUT, output, "cell-test-" + variant.letter(), 0, 0, false, ClientSettings.DEFAULTS, dir.resolve(variant.id()).toString(),
                dir.resolve(variant.id() + ".properties").toString(), JvmWarmUp.ONCE);
        Properties measured = CellRunner.run(spec);
        TopicReport report = TopicVerifier.forTopic(broker.bootstrapServers(), output).keepRecords(true).read();
        TopicReport warmUp = TopicVerifier.forTopic(broker.bootstrapServers(), JvmWarmUp.own(output))
                .keepRecords(true).read();

        assertThat(OutputDigest.of(NexmarkQuery.Q0, report)).as(variant.id()).isEqualTo(expected);
        assertThat(report.partitionsWithOpenTransactions()).isEmpty();
        assertThat(OutputDigest.of(NexmarkQuery.Q0, warmUp)).as("the warm-up run's output").isEqualTo(expected);
        assertThat(Double.parseDouble(measured.getProperty("jvmWarmUpSeconds"))).isPositive();
        // The operators' record counts are the measured job's alone, not summed with the warm-up run's.
        assertThat(java.util.Arrays.stream(measured.getProperty("operatorRecords").split(" \\|\\| "))
                .filter(line -> line.contains(": Writer |")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("| in " + expected.entries() + " out ");
        assertThat(Double.parseDouble(measured.getProperty("jobSeconds"))).isPositive();
        assertThat(Double.parseDouble(measured.getProperty("cpuSeconds"))).isPositive();
        assertThat(measured.getProperty("sinkPath")).isEqualTo("kafka-columnar[admitted: json value]");
        // The checkpoints of the steady window are some of the job's (its read side's 10 % to 90 %).
        assertThat(Integer.parseInt(measured.getProperty("steadyCheckpoints")))
                .isBetween(0, Integer.parseInt(measured.getProperty("checkpoints")));
        // The phases cut Flink's RUNNING-to-FINISHED span without gap or overlap (each rounded to the millisecond).
        long phasesMs = java.util.Arrays.stream(measured.getProperty("phasesMs").split(" "))
                .mapToLong(phase -> Long.parseLong(phase.substring(phase.indexOf('=') + 1)))
                .sum();
        assertThat((double) phasesMs).isCloseTo(Double.parseDouble(measured.getProperty("jobSeconds")) * 1e3,
                org.assertj.core.data.Offset.offset(3.0));
    }

    @Test
    void q2sFloorCellWritesExactlyTheValuesStockWritesForTheBidsItKeeps() throws Exception {
        OutputDigest expected = expectedQ2();
        assertThat(expected.entries()).as("bids q2 keeps").isPositive().isLessThan(EVENTS / 50);

        String tagged = "nexmark-cell-test-q2-tagged";
        broker.createTopic(tagged, 2);
        FloorTable table = FloorPrecompute.run(NexmarkQuery.Q2, broker.bootstrapServers(), INPUT, tagged);
        assertThat(table.kept()).isEqualTo(expected.entries());
        table.write(FloorTable.file(dir, NexmarkQuery.Q2));
        String output = "nexmark-cell-test-q2-f";
        broker.createTopic(output, 2);
        CellSpec spec = new CellSpec(NexmarkQuery.Q2, Variant.FLOOR, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, EVENTS, 2, 500,
                broker.bootstrapServers(), INPUT, output, "cell-test-f", 0, 0, false, ClientSettings.DEFAULTS,
                dir.resolve("FLOOR").toString(), dir.resolve("FLOOR.properties").toString(), JvmWarmUp.OFF);
        Properties measured = CellRunner.run(spec);
        TopicReport report = TopicVerifier.forTopic(broker.bootstrapServers(), output).keepRecords(true).read();

        assertThat(OutputDigest.of(NexmarkQuery.Q2, report)).isEqualTo(expected);
        assertThat(report.partitionsWithOpenTransactions()).isEmpty();
        assertThat(measured.getProperty("sinkPath")).startsWith("floor: ");
        assertThat(measured.getProperty("steadyWriters")).contains("floor sink q2: Writer");
        assertThat(Double.parseDouble(measured.getProperty("steadyReadEventsPerSecond"))).isPositive();
    }

    @Test
    void everyQueryOfTheSuiteIsRunOrSkippedWithAReason() {
        List<String> run = new ArrayList<>();
        for (NexmarkQuery query : NexmarkQuery.values()) {
            run.add(query.id());
            String sql = String.join(";\n", query.statements("'connector' = 'blackhole'"));
            assertThat(sql).as(query.id()).contains("INSERT INTO nexmark_" + query.id());
            assertThat(query.statements("x").get(0).contains("PRIMARY KEY")).as(query.id()).isEqualTo(query.upsert());
        }
        run.addAll(NexmarkQuery.SKIPPED.keySet());
        assertThat(run).hasSize(23);
        for (int q = 0; q <= 22; q++) {
            assertThat(run).contains("q" + q);
        }
    }

    private static OutputDigest expectedQ2() throws Exception {
        return expectedBids("ROW<auction BIGINT, price BIGINT>", bid -> bid.getLong(0) % 123 == 0,
                bid -> GenericRowData.of(bid.getLong(0), bid.getLong(2)));
    }

    private static OutputDigest expectedQ0() throws Exception {
        return expectedBids("ROW<auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra STRING>",
                bid -> true, bid -> GenericRowData.of(bid.getLong(0), bid.getLong(1), bid.getLong(2),
                        bid.getTimestamp(5, 3), bid.getString(6)));
    }

    /** The generated bids {@code keeps} passes, each projected and written by Flink's own json serializer. */
    private static OutputDigest expectedBids(String type, java.util.function.Predicate<RowData> keeps,
                                             java.util.function.Function<RowData, RowData> project) throws Exception {
        JsonRowDataSerializationSchema flink = FlinkJson.openSerializer(RowTypes.parse(type));
        NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.defaults(5));
        List<String> values = new ArrayList<>();
        for (long i = 0; i < EVENTS; i++) {
            GenericRowData event = generator.event(i);
            if (event.getInt(0) == NexmarkGenerator.BID && keeps.test(event.getRow(3, 7))) {
                values.add(new String(flink.serialize(project.apply(event.getRow(3, 7))), StandardCharsets.UTF_8));
            }
        }
        return OutputDigest.of(values);
    }
}
