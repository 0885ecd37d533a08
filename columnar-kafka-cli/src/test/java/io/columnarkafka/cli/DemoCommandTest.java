package io.columnarkafka.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's main job, small: embedded broker, local Flink, exactly once, verified. */
class DemoCommandTest {

    /** Runs the CLI, asserts it exited 0 (showing both streams if not) and returns its standard output. */
    private static String runSuccessfully(String... args) {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int exit = ColumnarKafkaCli.run(List.of(args), new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        String out = stdout.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out + stderr.toString(StandardCharsets.UTF_8)).isZero();
        return out;
    }

    @Test
    void theDemoCopiesEveryBidFromKafkaToKafkaExactlyOnceAndSaysSo() {
        String out = runSuccessfully("demo", "--rows", "30000", "--batch-size", "1000", "--checkpoint-interval", "300",
                "--topic", "demo-default");
        assertThat(out)
                .contains("broker ready at 127.0.0.1:")
                .contains("filling the input topic demo-default-input (2 partitions) with 30,000 Nexmark bids")
                .contains("copying 30,000 Nexmark bids from topic demo-default-input to topic demo-default"
                        + " (2 partitions) through the columnar source and sink")
                .containsPattern("checkpoints: [1-9]\\d* completed")
                .contains("verifier: OK: 30000 records, 0 duplicates, 0 missing, 0 unexpected");
        assertThat(ArrowMemory.allocatedBytes()).as("Arrow memory after the job").isZero();
    }

    @Test
    void generatedInputWritesArrowBatchesMadeInTheJob() {
        String out = runSuccessfully("demo", "--input", "generated", "--rows", "10000", "--batch-size", "1000",
                "--checkpoint-interval", "300", "--topic", "demo-generated");
        assertThat(out)
                .doesNotContain("filling the input topic")
                .contains("writing 10,000 Nexmark bids to topic demo-generated (2 partitions) through the columnar sink")
                .contains("verifier: OK: 10000 records, 0 duplicates, 0 missing, 0 unexpected");
        assertThat(ArrowMemory.allocatedBytes()).as("Arrow memory after the job").isZero();
    }

    @Test
    void compareRunsStockFlinkOnTheSameBidsAndPrintsBothSideBySide() {
        String out = runSuccessfully("demo", "--rows", "20000", "--batch-size", "1000", "--checkpoint-interval", "300",
                "--compare", "--topic", "demo-compare");
        assertThat(out)
                .contains("copying 20,000 Nexmark bids from topic demo-compare-input to topic demo-compare (2 partitions)"
                        + " through the columnar source and sink")
                .contains("copying 20,000 Nexmark bids from topic demo-compare-input to topic demo-compare-stock"
                        + " (2 partitions) through the stock Flink")
                .containsPattern("records/s \\(job wall time\\) +[\\d,]+ +[\\d,]+")
                .containsPattern("Flink JVM CPU per record +\\d+\\.\\d\\d µs +\\d+\\.\\d\\d µs")
                .containsPattern("checkpoint e2e avg / p99 / max +\\d+ / \\d+ / \\d+ ms +\\d+ / \\d+ / \\d+ ms")
                .containsPattern("verifier \\(read_committed\\) +OK +OK")
                .containsPattern("columnar / stock: \\d+\\.\\d\\dx the records/s, \\d+\\.\\d\\dx the Flink CPU per record");
        // Both topics verified on their own: the stock run is read back from its own topic.
        assertThat(out.split("verifier: OK: 20000 records, 0 duplicates, 0 missing, 0 unexpected", -1)).hasSize(3);
        assertThat(out).contains("(topic demo-compare-stock, read_committed, 2 partitions)");
        assertThat(ArrowMemory.allocatedBytes()).as("Arrow memory after the jobs").isZero();
    }

    @Test
    void checkpointsDeclinedByAFinishingJobAreExplainedOthersAreShownAsTheyAre() {
        DemoRun finishing = new DemoRun("columnar sink", 1000, 1, 1, 17, 1, 10, 20, 30, 40,
                List.of("Checkpoint was declined (task is closing)"), "OK", true);
        assertThat(finishing.checkpointLine()).contains("17 completed, 1 failed")
                .contains("triggered while the bounded job was finishing")
                .contains("Checkpoint was declined (task is closing)");
        DemoRun other = new DemoRun("columnar sink", 1000, 1, 1, 17, 1, 10, 20, 30, 40,
                List.of("Checkpoint expired before completing."), "OK", true);
        assertThat(other.checkpointLine()).doesNotContain("finishing")
                .contains("failed checkpoints: Checkpoint expired before completing.");
        DemoRun clean = new DemoRun("columnar sink", 1000, 1, 1, 17, 0, 10, 20, 30, 40, List.of(), "OK", true);
        assertThat(clean.checkpointLine()).endsWith("max 40 ms");
    }

    @Test
    void demoRejectsBadArguments() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int exit = ColumnarKafkaCli.run(List.of("demo", "--rows", "many"),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(exit).isEqualTo(2);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("--rows").contains("many");

        ByteArrayOutputStream inputErr = new ByteArrayOutputStream();
        int inputExit = ColumnarKafkaCli.run(List.of("demo", "--input", "file"),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(inputErr, true, StandardCharsets.UTF_8));
        assertThat(inputExit).isEqualTo(2);
        assertThat(inputErr.toString(StandardCharsets.UTF_8)).contains("--input is kafka or generated, got 'file'");
    }
}
