package io.columnarkafka.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A SQL script run by the SQL client's embedded mode ({@link EmbeddedSqlClient}) in a JVM of its own on the
 * cluster's lib/, submitting to the cluster: the script is a test resource whose {@code ${name}} placeholders are
 * filled in; the client must exit 0 within its time.
 */
final class SqlClientRun {
    private SqlClientRun() {}

    /** Runs the script; what the client printed (EXPLAIN output among it). */
    static String run(FlinkCluster cluster, Path dir, String scriptResource, Map<String, String> values,
            List<String> clientArgs, String label) throws IOException, InterruptedException {
        String script = resource(scriptResource);
        for (Map.Entry<String, String> value : values.entrySet()) {
            script = script.replace("${" + value.getKey() + "}", value.getValue());
        }
        assertThat(script).as("placeholders left in " + scriptResource).doesNotContain("${");
        Path file = dir.resolve(label + ".sql");
        Files.writeString(file, script);
        List<String> args = new ArrayList<>(clientArgs);
        args.addAll(List.of("-f", file.toString()));
        FlinkProcess clientProcess = cluster.launch("sql-client-" + label, EmbeddedSqlClient.class.getName(),
                List.of("-Xmx512m", "-XX:+UseSerialGC"), List.of(), args.toArray(String[]::new));
        Process client = clientProcess.process();
        boolean exited = client.waitFor(4, TimeUnit.MINUTES);
        if (!exited) {
            client.destroyForcibly();
        }
        String output = Files.readString(clientProcess.log());
        System.out.println("--- SQL client output (" + label + ")\n" + output);
        assertThat(exited && client.exitValue() == 0)
                .as("SQL client exited 0\n%s\n--- taskmanager.log\n%s", output, cluster.logTails())
                .isTrue();
        return output;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SqlClientRun.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
