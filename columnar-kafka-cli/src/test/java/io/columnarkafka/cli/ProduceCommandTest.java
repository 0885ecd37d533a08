package io.columnarkafka.cli;

import static io.columnarkafka.format.arrow.FlinkValues.str;
import static io.columnarkafka.format.arrow.FlinkValues.ts;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.json.parity.FlinkJsonOracle;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code produce} as a real process: an Arrow IPC file through the standalone client to a topic, with its
 * own embedded broker or a given one, and its read_committed verdict. The records on a given broker are
 * compared with Flink's own {@code JsonRowDataSerializationSchema} on the same rows.
 */
class ProduceCommandTest {
    private static final String TYPE = "ROW<id BIGINT, name STRING, ts TIMESTAMP(3)>";
    private static final RowType ROW_TYPE = RowTypes.parse(TYPE);
    private static final int ROWS = 250;

    @TempDir Path dir;

    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            rows.add(GenericRowData.of(id, id % 5 == 0 ? null : str("bid \"" + id + "\" é \uD83D\uDE00"),
                    ts(id % 2 == 0 ? "1969-12-31T23:59:59.999" : "2024-02-29T12:00:00.120")));
        }
        return rows;
    }

    @Test
    void exactlyOnceOnAnEmbeddedBrokerEndsWithAnOkVerdict() throws Exception {
        Path input = ArrowFiles.write(dir.resolve("rows.arrow"), ROW_TYPE, rows(), 40, true);
        CliProcess.Result result = CliProcess.run(Duration.ofMinutes(4), "produce", "--row-type", TYPE,
                "--format", "json", "--input", input.toString(), "--batches-per-epoch", "3", "--partitions", "2");

        assertThat(result.exitCode()).as(result.stdoutText() + result.stderr()).isZero();
        assertThat(result.stdoutText())
                .contains("starting an embedded Kafka broker")
                .contains("exactly-once, json value (JsonBatchEncoder)")
                .contains("sent 250 records").contains("3 epochs committed")
                .contains("verifier: 250 records, 0 duplicates, 0 missing, 0 unexpected");
    }

    @Test
    void atLeastOnceToAGivenBrokerWritesFlinksBytes() throws Exception {
        Map<String, String> options = Map.of("encode.ignore-null-fields", "true", "timestamp-format.standard", "ISO-8601");
        Path input = ArrowFiles.write(dir.resolve("rows.arrows"), ROW_TYPE, rows(), 64, false);
        try (KafkaBroker broker = KafkaBroker.start()) {
            CliProcess.Result result = CliProcess.run(Duration.ofMinutes(3), "produce", "--row-type", TYPE,
                    "--format", "json", "--option", "json.encode.ignore-null-fields=true",
                    "--option", "json.timestamp-format.standard=ISO-8601", "--input", input.toString(),
                    "--delivery-guarantee", "at-least-once", "--topic", "given",
                    "--bootstrap-servers", broker.bootstrapServers());
            assertThat(result.exitCode()).as(result.stdoutText() + result.stderr()).isZero();
            assertThat(result.stdoutText()).doesNotContain("embedded").contains("verifier: 250 records");

            FlinkJsonOracle flink = FlinkJsonOracle.of(ROW_TYPE, options);
            List<byte[]> expected = rows().stream().map(flink::serialize).toList();
            TopicReport report = TopicVerifier.forTopic(broker, "given").verify(expected);
            assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        }
    }

    @Test
    void badArgumentsExitWithUsageErrors() throws Exception {
        CliProcess.Result guarantee = CliProcess.run(Duration.ofMinutes(1), "produce", "--row-type", TYPE,
                "--format", "json", "--input", "x.arrow", "--delivery-guarantee", "twice");
        CliProcess.Result missing = CliProcess.run(Duration.ofMinutes(1), "produce", "--format", "json");

        assertThat(guarantee.exitCode()).isEqualTo(2);
        assertThat(guarantee.stderrLines()).singleElement().asString().contains("twice");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderrLines()).singleElement().asString().contains("--row-type, --format and --input");
    }
}
