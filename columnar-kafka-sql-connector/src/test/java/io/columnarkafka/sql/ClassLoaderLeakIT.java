package io.columnarkafka.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.flink.FlinkCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session cluster given the connector jar with each job ({@code sql-client.sh -j}, as a SQL gateway's sessions
 * do) must not keep the jobs' class loaders: each job loads the jar's classes (Arrow, Kafka's client, the encoders)
 * in a class loader of its own, and anything of the JVM's that keeps one of its objects (a thread, a JMX bean, a
 * shutdown hook, a thread-local of a pooled thread) keeps every class it loaded, until the task manager runs out of
 * metaspace. Three rounds of two jobs each (exactly-once {@code kafka-columnar} and {@code upsert-kafka-columnar});
 * after each, full collections in the task manager ({@code jcmd GC.class_histogram}) until no user-code class loader
 * and no copy of the jar's Arrow allocator class is live, within a minute. Tag {@code soak} (about 90 s):
 * {@code mvn -B -Psoak -pl columnar-kafka-sql-connector verify} after an install.
 */
@Tag("soak")
class ClassLoaderLeakIT {
    private static final int ROUNDS = 3;
    private static final String ALLOCATOR_CLASS = "io.columnarkafka.shaded.org.apache.arrow.memory.RootAllocator";

    @TempDir
    Path dir;

    @Test
    void jobsGivenTheJarLeaveNoClassLoaderBehind() throws Exception {
        try (KafkaBroker broker = KafkaBroker.start();
             FlinkCluster cluster = FlinkCluster.builder(FlinkLib.fromBuild().classpath(List.of()),
                     dir.resolve("flink")).start()) {
            Path jar = FlinkLib.connectorJar();
            long taskManager = cluster.taskManagers().get(0).process().pid();
            for (int round = 0; round < ROUNDS; round++) {
                String topic = "round" + round;
                broker.createTopic(topic, 2);
                broker.createTopic(topic + "_upsert", 2);
                SqlClientRun.run(cluster, dir, "sql-client-it.sql", Map.of("rows", "20000", "topic", topic,
                        "upsert_topic", topic + "_upsert", "servers", broker.bootstrapServers()),
                        Deployment.SQL_CLIENT_J.clientArgs(jar), "round" + round);
                String histogram = classHistogram(taskManager);
                assertThat(allocatorClasses(histogram)).as("the jar's classes were loaded in the task manager")
                        .isPositive();
                // Flink releases a finished job's class loader within seconds (measured: gone 10 s after the
                // jobs end); a leaked one never goes.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while ((userCodeClassLoaders(histogram) > 0 || allocatorClasses(histogram) > 0)
                        && System.nanoTime() < deadline) {
                    Thread.sleep(2_000);
                    histogram = classHistogram(taskManager);
                }
                System.out.printf("round %d: %d user-code class loaders, %d copies of %s%n", round,
                        userCodeClassLoaders(histogram), allocatorClasses(histogram), ALLOCATOR_CLASS);
                assertThat(userCodeClassLoaders(histogram)).as("user-code class loaders left after round %d", round)
                        .isZero();
                assertThat(allocatorClasses(histogram)).as("copies of the jar's Arrow allocator class left after round"
                        + " %d", round).isZero();
            }
        }
    }

    private static long userCodeClassLoaders(String histogram) {
        return histogram.lines().filter(l -> l.endsWith(" org.apache.flink.util.ChildFirstClassLoader"))
                .mapToLong(ClassLoaderLeakIT::instances).sum();
    }

    /** The loaded copies of the class: one per live class loader that loaded it. */
    private static long allocatorClasses(String histogram) {
        return histogram.lines().filter(l -> l.endsWith(" " + ALLOCATOR_CLASS)).count();
    }

    /** The task manager's live objects per class, after a full collection. */
    private static String classHistogram(long pid) throws IOException, InterruptedException {
        Path jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "GC.class_histogram")
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(out).as("jcmd's histogram").contains("Total");
        return out;
    }

    /** The instance count of a histogram line ({@code num: instances bytes class}). */
    private static long instances(String line) {
        return Long.parseLong(line.trim().split("\\s+")[1]);
    }
}
