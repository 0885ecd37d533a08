package io.columnarkafka.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Entry point of the broker child JVM started by {@link KafkaBroker}: runs {@code kafka.Kafka server.properties}
 * in this JVM, plus one guard against orphaned brokers.
 *
 * <p>The parent keeps this process's standard input open as a pipe and never writes to it. When the pipe reaches
 * end-of-file, the parent has either called {@link KafkaBroker#close()} (which closes the pipe as part of
 * {@code Process.destroy()}) or died, possibly by {@code SIGKILL}, where no shutdown hook of the parent runs. In
 * both cases this JVM halts at once, so a crashed test never leaves a broker running. If it was told a work
 * directory to remove, it removes it first (best effort), since a dead parent cannot.
 *
 * <p>Arguments: {@code <work dir to delete on orphaning, or "-"> <server.properties>}. Not public API.
 */
final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: BrokerMain <work-dir-to-delete|-> <server.properties>");
            System.exit(2);
        }
        Path deleteOnOrphan = "-".equals(args[0]) ? null : Path.of(args[0]);
        Thread watcher = new Thread(() -> watchParent(System.in, deleteOnOrphan), "testkit-parent-watch");
        watcher.setDaemon(true);
        watcher.start();
        kafka.Kafka.main(new String[] {args[1]});
    }

    private static void watchParent(InputStream in, Path deleteOnOrphan) {
        try {
            byte[] buffer = new byte[64];
            while (in.read(buffer) != -1) {
                // The parent never writes; ignore anything that arrives.
            }
        } catch (IOException e) {
            // Treat a broken pipe like end-of-file.
        }
        System.err.println("[testkit] standard input closed (parent closed the broker or exited); halting broker");
        System.err.flush();
        if (deleteOnOrphan != null) {
            FileUtil.deleteRecursivelyQuietly(deleteOnOrphan);
        }
        Runtime.getRuntime().halt(0);
    }
}
