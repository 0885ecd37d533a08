package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once under SIGKILL: an {@link EpochWriterProcess} child JVM is killed at a step of epoch 1 (before
 * its pre-commit, between pre-commit and commit, during commit), then a new one recovers from its checkpoint
 * file and writes the rest. {@code read_committed} must show every epoch exactly once and no transaction of
 * the pool may stay open.
 */
class EpochKillPointsITCase {
    private static final int EPOCHS = 3;
    private static final int ROWS = 200;
    private static KafkaBroker broker;

    @TempDir Path dir;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EpochWriterProcess.KillPoint.class, names = {"BEFORE_PRECOMMIT", "AFTER_PRECOMMIT", "DURING_COMMIT"})
    void everyEpochOnceAfterAKill(EpochWriterProcess.KillPoint point) throws Exception {
        String topic = "kill-" + point.name().toLowerCase().replace('_', '-');
        String prefix = topic + "-writer";
        broker.createTopic(topic, 2);
        Path checkpoint = dir.resolve("checkpoint");

        List<String> killed = run(topic, prefix, checkpoint, point, true);
        assertThat(killed).anyMatch(line -> line.startsWith("KILL-POINT " + point + " 1"));
        if (point != EpochWriterProcess.KillPoint.DURING_COMMIT) {
            assertThat(TopicVerifier.openTransactions(broker.bootstrapServers(), prefix))
                    .as("the killed writer left epoch 1's transaction open").isNotEmpty();
        }
        // The prepared epoch's descriptor, if the checkpoint file still holds it, is what the recovery must commit.
        // DURING_COMMIT signals and then commits, so the kill may land after the commit and its save: a race the
        // parent cannot close, and then there is nothing to recover (exactly once is still checked below).
        boolean prepared = Files.readAllLines(checkpoint).size() > 1;
        if (point != EpochWriterProcess.KillPoint.DURING_COMMIT) {
            assertThat(prepared).as("a descriptor persisted at the kill")
                    .isEqualTo(point == EpochWriterProcess.KillPoint.AFTER_PRECOMMIT);
        }
        List<String> recovered = run(topic, prefix, checkpoint, EpochWriterProcess.KillPoint.NONE, false);
        assertThat(recovered).contains("DONE");
        if (prepared) {
            assertThat(recovered).as("resumed from the descriptor, transaction protocol v2 on Kafka 4.2")
                    .anyMatch(line -> line.startsWith("RECOVERED epoch=1 ") && line.contains("tv2=true"));
        }

        TopicReport report = TopicVerifier.forTopic(broker, topic).verifyIds(0, EPOCHS * ROWS, IdBatches::idOf);
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), prefix, Duration.ofSeconds(30)))
                .isEmpty();
        if (point == EpochWriterProcess.KillPoint.BEFORE_PRECOMMIT) {
            assertThat(TopicVerifier.forTopic(broker, topic).readUncommitted().read().totalRecords())
                    .as("epoch 1 was written twice, the first time aborted").isEqualTo((EPOCHS + 1) * ROWS);
        }
    }

    /** Runs a writer; with {@code kill}, SIGKILLs it once it reports its kill point. Returns its output lines. */
    private List<String> run(String topic, String prefix, Path checkpoint, EpochWriterProcess.KillPoint point,
            boolean kill) throws IOException, InterruptedException {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), EpochWriterProcess.class.getName(),
                broker.bootstrapServers(), topic, prefix, checkpoint.toString(), Integer.toString(EPOCHS),
                Integer.toString(ROWS), point.name(), "1");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.PIPE).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (kill && line.startsWith("KILL-POINT")) {
                    process.destroyForcibly(); // SIGKILL: no shutdown hook, no producer close
                    break;
                }
            }
        } finally {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        if (!kill) {
            assertThat(process.exitValue()).as(String.join("\n", lines)).isZero();
        }
        return lines;
    }
}
