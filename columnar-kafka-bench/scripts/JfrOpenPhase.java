import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.regex.*;
import jdk.jfr.consumer.*;

/**
 * Where a restarted job's open phase goes in the spare TaskManager of a recovery cell: the TaskManager's JFR
 * recording cut to the open phase its log shows (the restarted tasks' first {@code CREATED to DEPLOYING} to the last
 * {@code INITIALIZING to RUNNING}), each task thread's execution samples counted only until that task ran. Per task
 * (its subtasks together) and for the other threads: samples, the share holding our code, class loading, a static
 * initializer, Janino, Kafka's client, Arrow, Flink's state restore, method-handle bootstrapping; the deepest frames
 * of ours; the inclusive frames that set the tasks apart. Then the classes loaded in the window, by thread and by
 * package, with the time spent loading them (outermost loads only), the JVM's CPU load and its GC pauses.
 * Run with the JDK's single-file launcher:
 *
 *   java columnar-kafka-bench/scripts/JfrOpenPhase.java taskmanager-2.log chunk.jfr...
 *
 * Recordings: TASKMANAGER_JAVA_OPTS="-XX:StartFlightRecording=settings=FILE.jfc
 * -XX:FlightRecorderOptions=repository={dir}/jfr" with a copy of the JDK's profile.jfc whose jdk.ClassLoad is
 * enabled. The TaskManagers never exit normally (one is killed, the spare halted when the cell closes the cluster),
 * so no recording is dumped: the chunks left in the repository, {@code <dir>/jfr/<time>_<pid>/*.jfr}, are the
 * recording (docs/nexmark.md, "Where a restart's open phase goes").
 */
public class JfrOpenPhase {
    static final Pattern TASK = Pattern.compile(
            "^(\\d\\d:\\d\\d:\\d\\d,\\d\\d\\d) .*Task - (.*\\(\\d+/\\d+\\)#\\d+) \\([0-9a-f_]+\\) switched from (\\w+) to (\\w+)");
    static final String[][] FLAGS = {
        {"ours", "io.columnarkafka."},
        {"class loading", "java.lang.ClassLoader.loadClass", "java.lang.ClassLoader.defineClass",
            "jdk.internal.loader.", "java.net.URLClassLoader", "org.apache.flink.util.ChildFirstClassLoader",
            "org.apache.flink.runtime.execution.librarycache."},
        {"static init", "<clinit>"},
        {"janino", "org.codehaus."},
        {"kafka client", "org.apache.kafka."},
        {"arrow", "org.apache.arrow."},
        {"flink state restore", "org.apache.flink.runtime.state.", "StreamTaskStateInitializerImpl"},
        {"method handles / lambdas", "java.lang.invoke."},
        {"reflection", "java.lang.reflect.", "jdk.internal.reflect."},
        {"deserialization", "java.io.ObjectInputStream", "InstantiationUtil.deserialize"},
    };

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        List<Path> chunks = Arrays.stream(args).skip(1).map(Path::of).toList();
        LocalTime first = null;
        LocalTime last = null;
        Map<String, LocalTime> running = new HashMap<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = TASK.matcher(line);
            if (!m.find() || !m.group(2).contains("#") || m.group(2).endsWith("#0")) {
                continue; // only the restarted attempts (#1 and later)
            }
            LocalTime at = LocalTime.parse(m.group(1).replace(',', '.'));
            if (m.group(3).equals("CREATED") && first == null) {
                first = at;
            }
            if (m.group(3).equals("INITIALIZING") && m.group(4).equals("RUNNING")) {
                running.put(m.group(2), at);
                last = last == null || at.isAfter(last) ? at : last;
            }
        }
        if (first == null || last == null) {
            throw new IllegalArgumentException(log + ": no restarted task ran");
        }
        System.out.printf("open phase window %s .. %s (%d ms), %d subtasks%n", first, last,
                Duration.between(first, last).toMillis(), running.size());

        Map<String, Group> groups = new TreeMap<>();
        Map<String, Map<String, long[]>> loadsByThread = new TreeMap<>();
        Map<String, long[]> loadsByPackage = new TreeMap<>();
        Map<Long, List<long[]>> openLoads = new HashMap<>();
        double[] cpu = new double[3];
        long[] gc = new long[2];
        ZoneId zone = ZoneId.systemDefault();
        List<RecordedEvent> loads = new ArrayList<>();
        List<RecordedEvent> events = new ArrayList<>();
        for (Path chunk : chunks) {
            events.addAll(RecordingFile.readAllEvents(chunk));
        }
        for (RecordedEvent event : events) {
            LocalTime at = LocalTime.ofInstant(event.getStartTime(), zone);
            if (at.isBefore(first) || at.isAfter(last)) {
                continue;
            }
            String type = event.getEventType().getName();
            switch (type) {
                case "jdk.ExecutionSample" -> {
                    RecordedThread thread = event.getThread("sampledThread");
                    String name = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
                    LocalTime ran = running.get(name);
                    if (ran != null && at.isAfter(ran)) {
                        continue;
                    }
                    String group = ran != null ? "task: " + name.replaceAll(" \\(\\d+/\\d+\\)#\\d+$", "")
                            : "other: " + name.replaceAll("[0-9]+", "N");
                    groups.computeIfAbsent(group, g -> new Group()).add(event.getStackTrace());
                }
                case "jdk.ClassLoad" -> loads.add(event);
                case "jdk.CPULoad" -> {
                    cpu[0] += event.getFloat("jvmUser") + event.getFloat("jvmSystem");
                    cpu[1] += event.getFloat("machineTotal");
                    cpu[2]++;
                }
                case "jdk.GarbageCollection" -> {
                    gc[0]++;
                    gc[1] += event.getDuration().toMillis();
                }
                default -> { }
            }
        }
        for (var e : groups.entrySet()) {
            e.getValue().print(e.getKey());
        }

        // Outermost class loads: an event inside another of the same thread is part of the outer one's time.
        loads.sort(Comparator.comparing(RecordedEvent::getStartTime));
        Map<String, Instant> busyUntil = new HashMap<>();
        long total = 0;
        long totalNanos = 0;
        for (RecordedEvent event : loads) {
            RecordedThread thread = event.getThread();
            String name = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
            RecordedClass loaded = event.getClass("loadedClass");
            String cls = loaded == null ? "?" : loaded.getName();
            String pkg = packageOf(cls);
            Instant until = busyUntil.get(name);
            boolean outermost = until == null || !event.getStartTime().isBefore(until);
            long nanos = outermost ? event.getDuration().toNanos() : 0;
            if (outermost) {
                busyUntil.put(name, event.getEndTime());
            }
            String group = running.containsKey(name) ? "task: " + name.replaceAll(" \\(\\d+/\\d+\\)#\\d+$", "")
                    : "other: " + name.replaceAll("[0-9]+", "N");
            long[] byThread = loadsByThread.computeIfAbsent(group, g -> new TreeMap<>())
                    .computeIfAbsent(pkg, p -> new long[2]);
            byThread[0]++;
            byThread[1] += nanos;
            long[] byPkg = loadsByPackage.computeIfAbsent(pkg, p -> new long[2]);
            byPkg[0]++;
            byPkg[1] += nanos;
            total++;
            totalNanos += nanos;
        }
        System.out.printf("%nclasses loaded in the window: %d, outermost load time %d ms%n", total, totalNanos / 1_000_000);
        printTop("  by package", loadsByPackage, 25);
        for (var e : loadsByThread.entrySet()) {
            long n = e.getValue().values().stream().mapToLong(v -> v[0]).sum();
            long ms = e.getValue().values().stream().mapToLong(v -> v[1]).sum() / 1_000_000;
            System.out.printf("  %s: %d classes, %d ms%n", shorten(e.getKey()), n, ms);
            printTop("    ", e.getValue(), 8);
        }
        System.out.printf("%nJVM CPU load (of the machine) in the window: mean %.2f over %d samples (machine %.2f)%n",
                cpu[2] == 0 ? 0 : cpu[0] / cpu[2], (long) cpu[2], cpu[2] == 0 ? 0 : cpu[1] / cpu[2]);
        System.out.printf("GC pauses in the window: %d, %d ms%n", gc[0], gc[1]);
    }

    static void printTop(String title, Map<String, long[]> counts, int n) {
        if (!title.isBlank()) {
            System.out.println(title);
        }
        counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).limit(n)
                .forEach(e -> System.out.printf("      %6d classes %6d ms  %s%n", e.getValue()[0],
                        e.getValue()[1] / 1_000_000, e.getKey()));
    }

    static String packageOf(String cls) {
        String[] parts = cls.split("\\.");
        int keep = cls.startsWith("io.columnarkafka.") || cls.startsWith("org.apache.flink.")
                ? Math.min(4, parts.length - 1) : Math.min(3, parts.length - 1);
        return String.join(".", Arrays.copyOf(parts, Math.max(keep, 1)));
    }

    static String shorten(String s) {
        return s.length() > 110 ? s.substring(0, 107) + "..." : s;
    }

    static String frame(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        return m == null ? "?" : m.getType().getName() + "." + m.getName();
    }

    static final class Group {
        long samples;
        final long[] flagged = new long[FLAGS.length];
        final Map<String, Long> oursDeepest = new HashMap<>();
        final Map<String, Long> inclusive = new HashMap<>();
        final Map<String, Long> leafPackages = new HashMap<>();

        void add(RecordedStackTrace stack) {
            samples++;
            if (stack == null) {
                return;
            }
            List<RecordedFrame> frames = stack.getFrames();
            boolean[] seen = new boolean[FLAGS.length];
            Set<String> distinct = new HashSet<>();
            String deepestOurs = null;
            for (RecordedFrame f : frames) { // leaf first
                String name = frame(f);
                distinct.add(name);
                if (deepestOurs == null && name.startsWith("io.columnarkafka.")) {
                    deepestOurs = name;
                }
                for (int i = 0; i < FLAGS.length; i++) {
                    for (int j = 1; j < FLAGS[i].length && !seen[i]; j++) {
                        seen[i] = name.contains(FLAGS[i][j]);
                    }
                }
            }
            for (int i = 0; i < FLAGS.length; i++) {
                flagged[i] += seen[i] ? 1 : 0;
            }
            if (deepestOurs != null) {
                oursDeepest.merge(deepestOurs, 1L, Long::sum);
            }
            for (String name : distinct) {
                inclusive.merge(name, 1L, Long::sum);
            }
            if (!frames.isEmpty()) {
                leafPackages.merge(packageOf(frame(frames.get(0))), 1L, Long::sum);
            }
        }

        void print(String name) {
            System.out.printf("%n%s: %d samples (~%d ms of CPU at 10 ms)%n", shorten(name), samples, samples * 10);
            StringBuilder flags = new StringBuilder("  ");
            for (int i = 0; i < FLAGS.length; i++) {
                flags.append(FLAGS[i][0]).append(' ').append(flagged[i]).append(i + 1 < FLAGS.length ? ", " : "");
            }
            System.out.println(flags);
            if (samples < 5) {
                return;
            }
            System.out.println("  deepest frame of ours:");
            top(oursDeepest, 12);
            System.out.println("  leaf package:");
            top(leafPackages, 8);
            System.out.println("  inclusive frames (held by under 90 % of the samples):");
            Map<String, Long> telling = new HashMap<>();
            inclusive.forEach((k, v) -> {
                if (v < samples * 0.9) {
                    telling.put(k, v);
                }
            });
            top(telling, 30);
        }

        static void top(Map<String, Long> counts, int n) {
            counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(n)
                    .forEach(e -> System.out.printf("    %6d  %s%n", e.getValue(), e.getKey()));
        }
    }
}
