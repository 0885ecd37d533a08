package io.columnarkafka.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * This JVM's CPU time by thread group over a measured span, from Linux's per-thread counters
 * ({@code /proc/self/task/<tid>/stat}): unlike JFR's execution samples it sees the JIT compiler and GC
 * threads, so it tells how much of a short job's CPU is warm-up (JIT) rather than work. A daemon thread
 * re-reads the counters every 200 ms so that threads ending before the span does (a finished job's task
 * threads) keep their last figure; its own CPU is reported as a group of its own (and is in the process
 * CPU time). Off by default: {@link #start()} returns null unless the environment variable {@code
 * BENCH_THREAD_CPU} is {@code 1}, and off Linux.
 */
public final class ThreadCpu implements AutoCloseable {
    private static final Path TASKS = Path.of("/proc/self/task");
    /** A thread that ends loses at most this much of its CPU; the poller itself costs about 1 % of a core. */
    private static final long POLL_MS = 500;
    private static final String POLLER = "thread-cpu-poller";
    /** Linux counts thread CPU in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
    private static final double SECONDS_PER_TICK = 0.01;

    /** The group of Flink's task threads (the chained operators: decode, encode, {@code producer.send}). */
    public static final String TASK_THREADS = "Flink task threads";
    /** The group of the sources' fetcher threads ({@code KafkaConsumer.poll}). */
    public static final String FETCHER_THREADS = "Kafka consumer (source fetcher threads)";
    /** The group of the producers' network threads. */
    public static final String PRODUCER_IO_THREADS = "Kafka producer I/O threads";
    /** The group of the JIT compiler threads. */
    public static final String JIT = "JIT compiler";

    /**
     * Thread groups by the first 15 characters of the thread name (Linux's {@code comm}, set by the JVM
     * from the Java name), first match wins; any other thread is "other: " and its name, digits masked.
     */
    private static final Map<String, String> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("C1 CompilerThre", JIT);
        GROUPS.put("C2 CompilerThre", JIT);
        GROUPS.put("GC Thread", "GC");
        GROUPS.put("G1 ", "GC");
        GROUPS.put("VM Thread", "JVM (VM thread, safepoints)");
        GROUPS.put("Source: ", TASK_THREADS);
        GROUPS.put("Source Data Fet", FETCHER_THREADS);
        GROUPS.put("kafka-producer-", PRODUCER_IO_THREADS);
        GROUPS.put(POLLER.substring(0, 15), "this measurement (its poller)");
    }

    private final Map<Integer, Sample> start;
    private final Map<Integer, Sample> last = new ConcurrentHashMap<>();
    private final Thread poller;
    private volatile boolean running = true;

    private ThreadCpu(Map<Integer, Sample> start) {
        this.start = start;
        this.last.putAll(start);
        this.poller = new Thread(this::poll, POLLER);
        this.poller.setDaemon(true);
        this.poller.start();
    }

    /** Starts measuring, or returns null when not asked for or where the per-thread counters are not readable. */
    public static ThreadCpu start() {
        if (!"1".equals(System.getenv("BENCH_THREAD_CPU")) || !Files.isDirectory(TASKS)) {
            return null;
        }
        try {
            return new ThreadCpu(read());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Stops measuring; returns CPU seconds per thread group over the span (largest first), e.g. {@code
     * Flink task threads=8.10;JIT compiler=3.20;...}, the format of the result files' {@code cpuByThread}.
     */
    public String stop() {
        close();
        try {
            last.putAll(read());
        } catch (IOException e) {
            // the poller's last figures stand
        }
        Map<String, Long> ticks = new LinkedHashMap<>();
        last.forEach((tid, now) -> {
            Sample before = start.get(tid);
            long spent = now.ticks - (before != null && before.name.equals(now.name) ? before.ticks : 0);
            ticks.merge(group(now.name), spent, Long::sum);
        });
        return ticks.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> String.format(Locale.ROOT, "%s=%.2f", e.getKey(), e.getValue() * SECONDS_PER_TICK))
                .collect(Collectors.joining(";"));
    }

    /** Reads back what {@link #stop()} returned: CPU seconds per thread group, in its order. */
    public static Map<String, Double> parse(String cpuByThread) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (String entry : cpuByThread.split(";")) {
            int equals = entry.lastIndexOf('=');
            if (equals > 0) {
                seconds.put(entry.substring(0, equals), Double.parseDouble(entry.substring(equals + 1)));
            }
        }
        return seconds;
    }

    @Override
    public void close() {
        running = false;
        poller.interrupt();
    }

    private void poll() {
        while (running) {
            try {
                Thread.sleep(POLL_MS);
                last.putAll(read());
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // a thread that ended between listing and reading: the next poll reads the rest
            }
        }
    }

    private static String group(String name) {
        for (Map.Entry<String, String> g : GROUPS.entrySet()) {
            if (name.startsWith(g.getKey())) {
                return g.getValue();
            }
        }
        return "other: " + name.replaceAll("\\d+", "#");
    }

    private static Map<Integer, Sample> read() throws IOException {
        Map<Integer, Sample> samples = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException ended) {
                    continue;
                }
                // "tid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                List<String> fields = List.of(stat.substring(close + 2).split(" "));
                // after comm: field 0 is state; utime and stime are the 12th and 13th
                long ticks = Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12));
                samples.put(Integer.parseInt(task.getFileName().toString()),
                        new Sample(stat.substring(open + 1, close), ticks));
            }
        }
        return samples;
    }

    private record Sample(String name, long ticks) {}
}
