package io.columnarkafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that launched a broker and is then killed with SIGKILL (no shutdown hook runs) must not leave the broker
 * running: the broker halts when its stdin pipe from the dead parent closes, and removes its work dir. The parent
 * is killed while the broker is still starting, which is both the cheaper and the harsher case.
 */
class OrphanedBrokerTest {

    /** Main of the parent JVM: start a broker (formatting in a child JVM, to cover that path), then wait. */
    public static void main(String[] args) throws Exception {
        try (KafkaBroker broker = KafkaBroker.builder().formatInChildJvm(true).start()) {
            Thread.sleep(120_000); // bounded: the test kills this JVM long before
        }
    }

    @TempDir
    Path temp;

    @Test
    void brokerExitsAndCleansUpWhenItsParentJvmIsKilled() throws Exception {
        Path parentOutput = temp.resolve("parent.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process parent = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), OrphanedBrokerTest.class.getName()))
                .redirectErrorStream(true)
                .redirectOutput(parentOutput.toFile())
                .start();
        Optional<ProcessHandle> broker = Optional.empty();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (broker.isEmpty() && parent.isAlive() && System.nanoTime() < deadline) {
                broker = parent.toHandle().children().filter(OrphanedBrokerTest::isBrokerMain).findFirst();
                Thread.sleep(50);
            }
            assertThat(broker).as("broker child JVM of the parent; parent alive: %s, its children: %s, its output:%n%s",
                    parent.isAlive(), parent.toHandle().children().map(ProcessHandle::info).collect(Collectors.toList()),
                    FileUtil.tail(parentOutput, 40)).isPresent();
            Path workDir = Path.of(argumentValue(broker.get(), "-Dkafka.logs.dir="));
            assertThat(workDir).isDirectory();
            Thread.sleep(1000); // let the broker JVM get into Kafka's startup

            parent.destroyForcibly(); // SIGKILL: the parent's shutdown hook does not run
            assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();

            broker.get().onExit().get(15, TimeUnit.SECONDS);
            assertThat(broker.get().isAlive()).isFalse();
            assertThat(workDir).doesNotExist();
        } finally {
            parent.destroyForcibly();
            broker.filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * The command line, as the JDK reports it on Linux, is cut at 4 KiB and then has no separate arguments, and the
     * classpath is long: so match the role property, which KafkaBroker puts first.
     */
    private static boolean isBrokerMain(ProcessHandle process) {
        return process.info().commandLine()
                .map(line -> line.contains(" -D" + KafkaBroker.ROLE_PROPERTY + "=broker "))
                .orElse(false);
    }

    private static String argumentValue(ProcessHandle process, String prefix) {
        String line = process.info().commandLine().orElseThrow();
        return Arrays.stream(line.split(" ")).filter(arg -> arg.startsWith(prefix)).findFirst()
                .map(arg -> arg.substring(prefix.length())).orElseThrow();
    }
}
