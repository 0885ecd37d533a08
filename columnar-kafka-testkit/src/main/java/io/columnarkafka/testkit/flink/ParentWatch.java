package io.columnarkafka.testkit.flink;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Launcher of the child JVMs of a {@link FlinkCluster} (job manager, task managers, a SQL client): runs
 * {@code args[0]}'s main with the remaining arguments and halts this JVM when its standard input, a pipe from the
 * test JVM, closes. So a test JVM that dies, even by SIGKILL, never leaves a Flink process behind.
 */
public final class ParentWatch {
    private ParentWatch() {
    }

    public static void main(String[] args) throws Exception {
        Thread watch = new Thread(ParentWatch::haltWhenStdinCloses, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }

    private static void haltWhenStdinCloses() {
        InputStream in = System.in;
        try {
            while (in.read() >= 0) {
                // the parent writes nothing; only the end of the stream matters
            }
        } catch (IOException e) {
            // a broken pipe means the parent is gone, as EOF does
        }
        Runtime.getRuntime().halt(0);
    }
}
