package io.columnarkafka.sql;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

/**
 * A Flink distribution's {@code lib/} built from Maven jars: the module's provided scope, written by the
 * build to {@code target/flink-lib.classpath}, or that lib/ with the planner swapped in for the loader. The testkit's
 * {@code FlinkCluster} starts Flink's processes on it, plus this module's test classes (only the SQL runner is used
 * there) and any extra jar, e.g. the connector jar in a cluster's {@code lib/}.
 */
final class FlinkLib {
    /** What the Flink distribution does not have: the project's own classes, Kafka's client, Arrow, Avro. */
    static final List<String> NOT_IN_FLINK = List.of(
            "io/columnarkafka/format/", "io/columnarkafka/client/", "io/columnarkafka/flink/", "org/apache/kafka/",
            "org/apache/arrow/", "org/apache/avro/", "org/apache/flink/connector/kafka/",
            "org/apache/flink/streaming/connectors/kafka/",
            "com/fasterxml/jackson/databind/");

    private final List<Path> jars;
    private final Path testClasses;

    private FlinkLib(List<Path> jars, Path testClasses) {
        this.jars = jars;
        this.testClasses = testClasses;
    }

    static FlinkLib fromBuild() {
        try {
            Path testClasses = Paths.get(EmbeddedSqlClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return new FlinkLib(read(Paths.get(required("flink.lib.classpath"))), testClasses);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The jars of a classpath file the build wrote. */
    private static List<Path> read(Path classpathFile) {
        try {
            return Arrays.stream(Files.readString(classpathFile).trim().split(File.pathSeparator))
                    .map(Paths::get).collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * This lib/ after the swap the planner stage needs (docs/planner.md): the planner loader taken out, Flink's
     * planner jar put in. The distribution's {@code opt/flink-table-planner_2.12-2.2.1.jar} is here the Maven
     * artifact with the dependencies it has there beside lib/ (Scala 2.12, Janino): the jars of the planner
     * module's provided scope (its build writes {@code planner.classpath}) that lib/ does not have.
     */
    FlinkLib withPlannerSwapped() {
        Path file = Paths.get(required("planner.classpath"));
        Set<String> inLib = jars.stream().map(j -> j.getFileName().toString()).collect(Collectors.toSet());
        List<Path> swapped = jars.stream()
                .filter(j -> !j.getFileName().toString().startsWith("flink-table-planner-loader-"))
                .collect(Collectors.toCollection(ArrayList::new));
        if (swapped.size() != jars.size() - 1) {
            throw new IllegalStateException("lib/ has no planner loader to take out: " + jars);
        }
        for (Path jar : read(file)) {
            if (!inLib.contains(jar.getFileName().toString())) {
                swapped.add(jar);
            }
        }
        if (swapped.stream().noneMatch(j -> j.getFileName().toString().startsWith("flink-table-planner_2.12-"))) {
            throw new IllegalStateException(file + " has no flink-table-planner_2.12 jar");
        }
        return new FlinkLib(swapped, testClasses);
    }

    /** The jars a user adds to lib/ for Flink's {@code avro} format (the build copies them). */
    static List<Path> avroFormat() {
        Path dir = Paths.get(required("avro.format.dir"));
        try (var files = Files.list(dir)) {
            List<Path> jars = files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
            if (jars.size() != 5) {
                throw new IllegalStateException("expected flink-avro, avro and three Jackson jars in " + dir + ": "
                        + jars);
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path connectorJar() {
        return Paths.get(required("connector.jar"));
    }

    /** Entries of the lib jars (and the test classes) whose names start with one of the prefixes. */
    List<String> entriesStartingWith(List<String> prefixes) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                file.stream().map(e -> e.getName()).filter(n -> prefixes.stream().anyMatch(n::startsWith))
                        .limit(3).forEach(n -> found.add(jar.getFileName() + "!" + n));
            }
        }
        try (var files = Files.walk(testClasses)) {
            files.map(p -> testClasses.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> prefixes.stream().anyMatch(n::startsWith)).limit(3).forEach(found::add);
        }
        return found;
    }

    /** The classpath of a Flink process: lib/ (the jars), {@code extraJars}, then this module's test classes. */
    List<Path> classpath(List<Path> extraJars) {
        List<Path> cp = new ArrayList<>(jars);
        cp.addAll(extraJars);
        cp.add(testClasses);
        return cp;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set: run through mvn verify");
        }
        return value;
    }
}
