package io.columnarkafka.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the command's main class in a child JVM with the test's classpath, the way a user runs it. */
final class CliProcess {
    private CliProcess() {}

    /** What a run left: its exit code, standard output and standard error. */
    record Result(int exitCode, byte[] stdout, String stderr) {
        List<String> stderrLines() {
            return stderr.lines().toList();
        }

        String stdoutText() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    static Result run(Duration timeout, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                ColumnarKafkaCli.class.getName()));
        command.addAll(List.of(args));
        Path stdout = Files.createTempFile("cli", ".out");
        Path stderr = Files.createTempFile("cli", ".err");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as(args[0] + " finished").isTrue();
            return new Result(process.exitValue(), Files.readAllBytes(stdout),
                    Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
