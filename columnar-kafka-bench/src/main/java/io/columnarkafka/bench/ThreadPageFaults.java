package io.columnarkafka.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The minor page faults of the calling thread, and the check that a harness's heap was touched before it measures.
 * A JVM commits its heap at start but the kernel maps each page on its first write: until every page of the heap has
 * been written once, the thread pays a fault (several µs in a VM) for each new page it allocates objects in, charged
 * to its CPU time. A run that allocates fewer bytes per batch reaches the untouched pages later, in its counted rounds,
 * and looks slower than one that allocated more during its warm-up; {@code -XX:+AlwaysPreTouch} writes every page at
 * start, as the heap of a long-running task has been.
 */
final class ThreadPageFaults {
    static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

    private ThreadPageFaults() {}

    /** The calling thread's minor page faults so far (Linux). */
    static long minor() {
        try {
            return minor(Files.readString(Path.of("/proc/thread-self/stat")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Field 10 ({@code minflt}) of a {@code /proc/.../stat} line; the command name, field 2, is in parentheses and
     * may hold spaces, so the fields are counted after its closing parenthesis.
     */
    static long minor(String procStat) {
        String[] after = procStat.substring(procStat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(after[7]);
    }

    /** Fails unless the JVM was started with {@value #PRE_TOUCH}: see the class comment. */
    static void requirePreTouchedHeap() {
        requirePreTouchedHeap(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    static void requirePreTouchedHeap(List<String> jvmArguments) {
        if (!jvmArguments.contains(PRE_TOUCH)) {
            throw new IllegalStateException("start the JVM with " + PRE_TOUCH + " (and -Xms equal to -Xmx): without"
                    + " it the counted rounds pay the first write to each heap page, more for a run that allocated"
                    + " less in its warm-up");
        }
    }
}
