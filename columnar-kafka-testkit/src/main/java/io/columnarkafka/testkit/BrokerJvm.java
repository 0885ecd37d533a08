package io.columnarkafka.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a broker child JVM is launched: the {@code java} binary, classpath, heap, extra arguments, log level, and how
 * long starting and stopping may take. Shared by {@link KafkaBroker} and {@link KafkaCluster}; immutable.
 *
 * <p>The classpath defaults to this JVM's; the system property {@value #BROKER_CLASSPATH_PROPERTY} names other Kafka
 * broker jars to run instead (a compatibility run), which are then also used to format the storage.
 */
record BrokerJvm(Path javaExecutable, String classpath, String maxHeap, List<String> jvmArgs, String logLevel,
                 boolean formatInChildJvm, Duration startupTimeout, Duration shutdownTimeout) {

    /**
     * System property naming the Kafka broker jars to run instead of this JVM's: a classpath string, or {@code @<file>}
     * for a file holding one (the testkit's build writes its own to {@code target/broker.classpath}).
     */
    static final String BROKER_CLASSPATH_PROPERTY = "columnarkafka.broker.classpath";
    /** System property naming a child JVM's role, "broker" or "format", early on its command line for ps. */
    static final String ROLE_PROPERTY = "columnarkafka.testkit.role";

    private static final String LOG4J_SLF4J_PROVIDER = "org.apache.logging.slf4j.SLF4JServiceProvider";

    BrokerJvm {
        jvmArgs = List.copyOf(jvmArgs);
        Objects.requireNonNull(maxHeap, "maxHeap");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    }

    /**
     * The classpath of {@value #BROKER_CLASSPATH_PROPERTY} plus this module, or null (this JVM's classpath) when the
     * property is not set.
     */
    static String brokerClasspathOverride() {
        String brokerJars = System.getProperty(BROKER_CLASSPATH_PROPERTY);
        if (brokerJars == null || brokerJars.isBlank()) {
            return null;
        }
        if (brokerJars.startsWith("@")) {
            // A file holding the classpath, as the testkit's build writes to target/broker.classpath.
            try {
                brokerJars = Files.readString(Path.of(brokerJars.substring(1))).trim();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the broker classpath file " + brokerJars.substring(1), e);
            }
        }
        return brokerJars + File.pathSeparator
                + BrokerJvm.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    }

    /** {@code java <options> -cp <classpath>} for a child running {@code role}, logging with {@code log4jFile}. */
    List<String> command(Path workDir, Path log4jFile, String role) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.add("-D" + ROLE_PROPERTY + "=" + role);
        command.add("-Xmx" + maxHeap);
        if (jvmArgs.stream().noneMatch(arg -> arg.matches("-XX:\\+Use\\w+GC"))) {
            // Small and single-threaded by default: a test broker shares a few cores with the JVMs it serves.
            command.add("-XX:+UseSerialGC");
        }
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-Djava.awt.headless=true");
        command.add("-Dlog4j2.configurationFile=" + log4jFile.toUri());
        command.add("-Dkafka.logs.dir=" + workDir);
        if (isOnClasspath(LOG4J_SLF4J_PROVIDER)) {
            command.add("-Dslf4j.provider=" + LOG4J_SLF4J_PROVIDER);
        }
        command.addAll(jvmArgs);
        String absolute = absoluteClasspath(classpath != null ? classpath : System.getProperty("java.class.path"));
        if (absolute.length() > 32 * 1024) {
            // Linux limits one argument to 128 KiB; a java @argfile has no such limit.
            Path argFile = workDir.resolve("classpath.args");
            String quoted = absolute.replace("\\", "\\\\").replace("\"", "\\\"");
            Files.writeString(argFile, "-cp \"" + quoted + "\"\n");
            command.add("@" + argFile);
        } else {
            command.add("-cp");
            command.add(absolute);
        }
        return command;
    }

    /** The child runs in the work dir, so relative entries (e.g. {@code -cp target/classes}) are made absolute. */
    static String absoluteClasspath(String classpath) {
        if (classpath == null || classpath.isEmpty()) {
            throw new IllegalStateException("java.class.path is empty; pass Builder.classpath(...)");
        }
        List<String> entries = new ArrayList<>();
        for (String entry : classpath.split(Pattern.quote(File.pathSeparator))) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.endsWith("*")) { // a java wildcard entry: dir/*
                String dir = entry.substring(0, entry.length() - 1);
                entries.add((dir.isEmpty() ? Path.of("") : Path.of(dir)).toAbsolutePath() + File.separator + "*");
            } else {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private String javaBinary() {
        if (javaExecutable != null) {
            return javaExecutable.toString();
        }
        Path fromHome = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name", "").toLowerCase().startsWith("windows") ? "java.exe" : "java");
        if (Files.isExecutable(fromHome)) {
            return fromHome.toString();
        }
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("Cannot find the java executable; set javaExecutable"));
    }

    private static boolean isOnClasspath(String className) {
        try {
            Class.forName(className, false, BrokerJvm.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
