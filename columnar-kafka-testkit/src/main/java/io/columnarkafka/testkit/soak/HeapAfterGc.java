package io.columnarkafka.testkit.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The heap in use by another JVM right after a full GC, measured with the JDK's own tools: {@code jcmd <pid> GC.run}
 * (a full collection), then {@code jstat -gc <pid>}, whose used columns (survivors, eden, old) are summed. Right after
 * the full GC that is the live heap, so a series of these shows whether a process retains more and more.
 */
public final class HeapAfterGc {
    private static final List<String> USED_COLUMNS = List.of("S0U", "S1U", "EU", "OU");

    private HeapAfterGc() {}

    /** Bytes of heap in use by process {@code pid} after a full GC it has just run. */
    public static long measure(long pid) {
        run(tool("jcmd"), Long.toString(pid), "GC.run");
        return usedBytes(run(tool("jstat"), "-gc", Long.toString(pid)));
    }

    /** The used heap in a {@code jstat -gc} answer (a header line, then a line of values in KB). */
    static long usedBytes(String jstatGc) {
        String[] lines = jstatGc.strip().split("\\R");
        if (lines.length < 2) {
            throw new IllegalStateException("unexpected jstat -gc output: " + jstatGc);
        }
        List<String> header = Arrays.asList(lines[0].trim().split("\\s+"));
        String[] values = lines[lines.length - 1].trim().split("\\s+");
        double kilobytes = 0;
        for (String column : USED_COLUMNS) {
            int index = header.indexOf(column);
            if (index < 0 || index >= values.length) {
                throw new IllegalStateException("no " + column + " in jstat -gc output: " + jstatGc);
            }
            kilobytes += Double.parseDouble(values[index]);
        }
        return Math.round(kilobytes * 1024);
    }

    /** A JDK tool beside the running {@code java} binary. */
    private static String tool(String name) {
        return ProcessHandle.current().info().command()
                .map(java -> Path.of(java).resolveSibling(name).toString())
                .orElse(name);
    }

    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
