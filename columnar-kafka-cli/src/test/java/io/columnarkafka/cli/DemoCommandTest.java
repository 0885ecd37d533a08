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

    @Test
    void theDemoWritesEveryBidExactlyOnceAndSaysSo() {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int exit = ColumnarKafkaCli.run(
                List.of("demo", "--rows", "30000", "--batch-size", "1000", "--checkpoint-interval", "300"),
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));

        String out = stdout.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out + stderr.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out)
                .contains("broker ready at 127.0.0.1:")
                .contains("writing 30,000 Nexmark bids")
                .containsPattern("checkpoints: [1-9]\\d* completed")
                .contains("verifier: OK: 30000 records, 0 duplicates, 0 missing, 0 unexpected");
        assertThat(ArrowMemory.allocatedBytes()).as("Arrow memory after the job").isZero();
    }

    @Test
    void demoRejectsBadArguments() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int exit = ColumnarKafkaCli.run(List.of("demo", "--rows", "many"),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(exit).isEqualTo(2);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("--rows").contains("many");
    }
}
