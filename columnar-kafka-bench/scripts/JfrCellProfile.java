import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
import jdk.jfr.consumer.*;

/**
 * Summarizes a JFR recording of one benchmark cell JVM (all threads): CPU samples by thread group, by
 * component, split into Kafka client / Flink runtime / ours ({@link #part}), hot methods (self, innermost
 * columnar-kafka frame, inclusive) and sampled allocation by class and site, plus the recording's
 * compilation and GC totals. Run with the JDK's single-file launcher:
 *
 *   java columnar-kafka-bench/scripts/JfrCellProfile.java recording.jfr
 *
 * Recordings: CHILD_JAVA_OPTS="-Xms1g -Xmx1g -XX:StartFlightRecording=filename=DIR/,settings=profile"
 * bin/bench-nexmark ... (one file per cell JVM in DIR, in the order the cells ran).
 * JFR samples Java threads only: the JIT compiler and GC threads' CPU is not in these samples (ThreadCpu,
 * BENCH_THREAD_CPU=1, measures it). The profile settings sample every 10 ms; a copy of profile.jfc with
 * {@code method-sampling-java-interval} 2 ms gives five times the samples of a short cell.
 */
public class JfrCellProfile {
    static final Pattern DIG = Pattern.compile("\\d+");
    static String m(RecordedFrame f) { return f.getMethod().getType().getName() + "." + f.getMethod().getName(); }
    static void top(String title, Map<String, Long> c, long total, int n) {
        System.out.println("\n## " + title + " (total " + total + ")");
        c.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n)
            .forEach(e -> System.out.printf("  %8d %5.1f%%  %s%n", e.getValue(), 100.0 * e.getValue() / Math.max(1, total), e.getKey()));
    }
    static String group(String name) {
        if (name.contains("Source Data Fetcher")) return "source fetcher thread";
        if (name.startsWith("kafka-producer-network-thread")) return "kafka producer I/O";
        if (name.matches(".*\\(\\d+/\\d+\\)#\\d+$")) return "task: " + DIG.matcher(name).replaceAll("#");
        return "other: " + DIG.matcher(name).replaceAll("#");
    }
    static String comp(String m) {
        String[][] c = {{"io.columnarkafka.format.", "ck-format"}, {"io.columnarkafka.flink.", "ck-flink"},
            {"org.apache.arrow.", "arrow"}, {"org.apache.flink.formats.json.", "flink-json"},
            {"org.apache.flink.shaded.jackson2.", "jackson"}, {"org.apache.flink.table.", "flink-table"},
            {"org.apache.flink.connector.kafka.", "flink-kafka-connector"}, {"org.apache.kafka.clients.consumer", "kafka-consumer"},
            {"org.apache.kafka.clients.producer", "kafka-producer"}, {"org.apache.kafka.", "kafka-other"},
            {"org.apache.flink.", "flink-other"}};
        for (String[] x : c) if (m.startsWith(x[0])) return x[1];
        return "other";
    }

    /**
     * Which part of the work a sample is. Kafka's producer I/O and fetcher threads are Kafka's (except our
     * chunking of a fetch), the other non-task threads Flink's runtime (or Kafka's admin client) and the main
     * thread the cell's start-up. In a task thread the innermost frame that names a part decides; JDK, Arrow,
     * Kafka's common and network classes, Flink's shaded Jackson and our format helpers (tokenizer, writers) name
     * none: they are decode or encode, Kafka's consumer or producer, by the frame that called them.
     */
    static final String[][] PARTS = {
        {"io.columnarkafka.client.decode.ChunkDecoder.decode", "ours: decode"},
        {"io.columnarkafka.format.json.JsonBatchDecoder", "ours: decode"},
        {"io.columnarkafka.flink.sink.EncodeFunction.encode", "ours: encode"},
        {"io.columnarkafka.flink.calc.", "ours: calc"},
        {"io.columnarkafka.format.RecordSlab.copyRecord", "ours: record copy-out and hand-over"},
        {"io.columnarkafka.flink.record.", "ours: record copy-out and hand-over"},
        {"io.columnarkafka.flink.table.TableRecordSerializationSchema", "ours: record copy-out and hand-over"},
        {"io.columnarkafka.flink.sink.EncodeFunction", "ours: batch handling (sink: layout, sizes, metrics, emit loop)"},
        {"io.columnarkafka.flink.source.reader.ChunkingSplitReader", "ours: batch handling (fetcher: chunking a fetch)"},
        {"io.columnarkafka.flink.", "ours: batch handling (source: emit, timestamps, projection)"},
        {"io.columnarkafka.bench.", "harness and start-up (main thread, planning)"},
        {"io.columnarkafka.planner.", "harness and start-up (main thread, planning)"},
        {"org.apache.kafka.clients.producer.", "Kafka producer, task thread (send: serialize, partition, append)"},
        {"org.apache.kafka.clients.consumer.", "Kafka consumer (fetcher thread: poll, parse)"},
        {"org.apache.flink.shaded.", null},
        {"org.apache.flink.formats.json.JsonParser", "Flink JSON decode (stock)"},
        {"org.apache.flink.formats.json.", "Flink JSON encode (stock)"},
        {"org.apache.flink.table.runtime.typeutils.", "Flink RowData copy (stock: object reuse off)"},
        {"StreamExecCalc", "Flink generated Calc (stock)"},
        {"org.apache.flink.connector.kafka.source.", "Flink Kafka source reader (per record)"},
        {"org.apache.flink.connector.kafka.sink.KafkaWriter", "Flink KafkaSink writer (per record)"},
        {"org.apache.flink.streaming.runtime.tasks.CopyingChainingOutput", "Flink chaining (StreamRecord copy per record)"},
        {"org.apache.flink.streaming.runtime.streamrecord.", "Flink chaining (StreamRecord copy per record)"},
        {"org.apache.flink.", "Flink runtime (mailbox, checkpoints, commits, RPC, metrics)"},
    };
    static final String[] TRANSPARENT = {"java.", "jdk.", "sun.", "org.apache.arrow.", "org.apache.kafka.",
        "io.columnarkafka.format."};

    static String part(String thread, List<RecordedFrame> frames) {
        if (thread.equals("other: main")) return "harness and start-up (main thread, planning)";
        if (thread.equals("kafka producer I/O")) return "Kafka producer I/O thread";
        if (thread.contains("kafka-admin-client")) return "Kafka admin client";
        for (RecordedFrame f : frames) {
            String mm = m(f);
            String named = null;
            boolean transparent = false;
            for (String[] p : PARTS) if (mm.startsWith(p[0])) { named = p[1]; transparent = named == null; break; }
            if (named != null) return named;
            for (String t : TRANSPARENT) transparent |= mm.startsWith(t);
            if (!transparent) return "other libraries";
        }
        if (thread.equals("source fetcher thread")) return "Kafka consumer (fetcher thread: poll, parse)";
        return thread.startsWith("task: ") ? "JDK only (task thread)" : "Flink runtime (mailbox, checkpoints, commits, RPC, metrics)";
    }

    public static void main(String[] a) throws Exception {
        Map<String, Long> groups = new HashMap<>(), self = new HashMap<>(), ours = new HashMap<>(), comps = new HashMap<>(),
            incl = new HashMap<>(), parts = new HashMap<>(), taskParts = new HashMap<>(), alloc = new HashMap<>(), allocSite = new HashMap<>(), allocOurs = new HashMap<>();
        long samples = 0, taskSamples = 0, allocTotal = 0; double compileMs = 0, gcMs = 0; long gcs = 0;
        double cpuUser = 0, cpuSys = 0; int cpuN = 0; Map<String, double[]> threadCpu = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(a[0]))) {
            String t = e.getEventType().getName();
            switch (t) {
                case "jdk.ExecutionSample" -> {
                    if (e.getStackTrace() == null) break;
                    RecordedThread th = e.getThread("sampledThread");
                    String name = th == null || th.getJavaName() == null ? "?" : th.getJavaName();
                    List<RecordedFrame> fr = e.getStackTrace().getFrames();
                    if (fr.isEmpty()) break;
                    samples++;
                    String g = group(name), p = part(g, fr);
                    groups.merge(g, 1L, Long::sum);
                    parts.merge(p, 1L, Long::sum);
                    if (g.startsWith("task: ")) { taskParts.merge(p, 1L, Long::sum); taskSamples++; }
                    self.merge(m(fr.get(0)), 1L, Long::sum);
                    String c = null, our = null;
                    Set<String> seen = new HashSet<>();
                    for (RecordedFrame f : fr) {
                        String mm = m(f);
                        if (c == null && !(mm.startsWith("java.") || mm.startsWith("jdk.") || mm.startsWith("sun."))) c = comp(mm);
                        if (our == null && mm.startsWith("io.columnarkafka")) our = mm;
                        if (seen.add(mm) && !mm.startsWith("java.lang.Thread") && !mm.contains("$$Lambda")) incl.merge(mm, 1L, Long::sum);
                    }
                    comps.merge(c == null ? "JDK only" : c, 1L, Long::sum);
                    if (our != null) ours.merge(our, 1L, Long::sum);
                }
                case "jdk.ObjectAllocationSample" -> {
                    long w = e.getLong("weight"); allocTotal += w;
                    alloc.merge(e.getClass("objectClass").getName(), w, Long::sum);
                    if (e.getStackTrace() != null) {
                        List<RecordedFrame> fr = e.getStackTrace().getFrames();
                        String site = null, our = null;
                        for (RecordedFrame f : fr) { String mm = m(f);
                            if (site == null && !(mm.startsWith("java.") || mm.startsWith("jdk."))) site = mm;
                            if (our == null && mm.startsWith("io.columnarkafka")) our = mm; }
                        allocSite.merge(e.getClass("objectClass").getName() + " @ " + site, w, Long::sum);
                        if (our != null) allocOurs.merge(our, w, Long::sum);
                    }
                }
                case "jdk.Compilation" -> compileMs += e.getDuration().toNanos() / 1e6;
                case "jdk.GarbageCollection" -> { gcMs += e.getDuration().toNanos() / 1e6; gcs++; }
                case "jdk.CPULoad" -> { cpuUser += e.getFloat("jvmUser"); cpuSys += e.getFloat("jvmSystem"); cpuN++; }
                case "jdk.ThreadCPULoad" -> {
                    RecordedThread th = e.getThread("eventThread");
                    String name = th == null || th.getJavaName() == null ? "?" : th.getJavaName();
                    threadCpu.computeIfAbsent(group(name), k -> new double[1])[0] += e.getFloat("user") + e.getFloat("system");
                }
                default -> {}
            }
        }
        System.out.println("# " + a[0]);
        System.out.printf("compilation (sum of jdk.Compilation durations) %.0f ms; GC %d collections, %.0f ms; CPULoad samples %d, mean jvm user %.2f sys %.2f (of all cores)%n",
            compileMs, gcs, gcMs, cpuN, cpuUser / Math.max(1, cpuN), cpuSys / Math.max(1, cpuN));
        top("execution samples by thread group", groups, samples, 20);
        top("by component (innermost non-JDK frame)", comps, samples, 20);
        top("CPU split: Kafka client, Flink, ours (every thread)", parts, samples, 30);
        top("CPU split: task threads only", taskParts, taskSamples, 30);
        top("self (top frame)", self, samples, 40);
        top("innermost io.columnarkafka frame", ours, samples, 25);
        top("inclusive", incl, samples, 60);
        Map<String, Long> oursIncl = new HashMap<>();
        incl.forEach((k, v) -> {
            if (k.startsWith("io.columnarkafka") || k.startsWith("org.apache.arrow")) oursIncl.put(k, v);
        });
        top("inclusive, io.columnarkafka and arrow", oursIncl, samples, 45);
        top("allocation by class (sampled weight bytes)", alloc, allocTotal, 20);
        top("allocation by class @ first non-JDK frame", allocSite, allocTotal, 30);
        top("allocation by innermost io.columnarkafka frame", allocOurs, allocTotal, 15);
    }
}
