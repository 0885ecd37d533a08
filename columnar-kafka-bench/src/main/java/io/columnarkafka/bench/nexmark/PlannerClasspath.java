package io.columnarkafka.bench.nexmark;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The classpath of a cell JVM that plans with Flink's planner jar instead of the planner loader (the stage
 * needs the planner's classes visible): the planner and its Scala 2.12 first (the file the planner module's
 * build writes), then this JVM's classpath without the loader and without the broker's Scala 2.13 jars (the
 * cells run no broker). Stock and columnar cells of a run both use it, so both plan with the same jar.
 */
public final class PlannerClasspath {
    /** System property naming the planner module's {@code target/planner.classpath} (set by bin/bench-nexmark). */
    static final String FILE_PROPERTY = "columnarkafka.planner.classpath.file";

    private PlannerClasspath() {}

    public static String forCells() {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null) {
            throw new IllegalStateException("--columnar-planner on needs -D" + FILE_PROPERTY
                    + "=<columnar-kafka-planner/target/planner.classpath> (bin/bench-nexmark sets it)");
        }
        List<String> entries = new ArrayList<>();
        try {
            entries.add(Files.readString(Path.of(file)).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (build columnar-kafka-planner first)", e);
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            boolean loader = name.startsWith("flink-table-planner-loader");
            boolean scala213 = name.contains("_2.13") || name.matches("scala-(library|reflect)-2\\.13.*");
            if (!loader && !scala213) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
