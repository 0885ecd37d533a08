package io.columnarkafka.bench.sink;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarizes the CPU samples ({@code jdk.ExecutionSample}) of a JFR recording of one run: where the
 * sending threads (Flink task threads, or the bare producer threads) spend their time, by hot method
 * and by component, and what the Kafka producers' I/O threads do.
 */
public final class JfrSummary {
    private static final int TOP = 15;
    /** Flink names a task thread "<chained operator names> (<subtask>/<parallelism>)#<attempt>". */
    private static final Pattern TASK_THREAD = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");
    /** Task and mailbox plumbing on every stack says nothing about where the time goes; left out of "inclusive". */
    private static final List<String> PLUMBING = List.of(
            "java.lang.Thread.", "org.apache.flink.runtime.", "org.apache.flink.streaming.runtime.",
            "org.apache.flink.streaming.api.operators.", "org.apache.flink.api.connector.source.",
            "org.apache.flink.util.function.");
    /** Thread names with their numbers masked, so "Flink-Metric-Registry-thread-1" and "-2" add up. */
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /** Component of a sample: the package of its innermost frame outside the JDK, first match wins. */
    private static final Map<String, String> COMPONENTS = new LinkedHashMap<>();

    static {
        COMPONENTS.put("io.columnarkafka.format.", "columnar encoder (io.columnarkafka.format)");
        COMPONENTS.put("io.columnarkafka.flink.", "columnar sink glue (io.columnarkafka.flink)");
        COMPONENTS.put("io.columnarkafka.testkit.nexmark.", "Bid generation (benchmark input)");
        COMPONENTS.put("io.columnarkafka.bench.", "benchmark harness");
        COMPONENTS.put("org.apache.arrow.", "Arrow");
        COMPONENTS.put("org.apache.flink.connector.datagen.", "datagen source (SQL input)");
        COMPONENTS.put("org.apache.flink.streaming.api.functions.source.datagen.", "datagen source (SQL input)");
        COMPONENTS.put("org.apache.commons.math3.", "datagen source (SQL input)");
        COMPONENTS.put("org.apache.flink.formats.json.", "Flink JSON serializer");
        COMPONENTS.put("org.apache.flink.shaded.jackson2.", "Flink JSON serializer (shaded Jackson)");
        COMPONENTS.put("org.apache.flink.table.", "Flink RowData / StringData");
        COMPONENTS.put("org.apache.flink.connector.kafka.", "Flink KafkaSink writer");
        COMPONENTS.put("org.apache.kafka.", "Kafka producer client");
        COMPONENTS.put("org.apache.flink.api.common.typeutils.", "Flink record copy (TypeSerializer)");
        COMPONENTS.put("org.apache.flink.", "Flink runtime (other)");
    }

    /**
     * Stage of a sending-thread sample: the first of these whose method prefix is anywhere on its stack. The
     * order makes it the innermost stage: a producer call inside the writer counts as the producer, the
     * encoder inside the encode operator as the encoder, the operators behind a network channel or a
     * copying chain as themselves. Lets the SQL variants' profiles be compared row by row: input, hand-overs
     * between operators, serialization, producer.
     */
    private static final Map<String, String> STAGES = new LinkedHashMap<>();

    static {
        STAGES.put("org.apache.kafka.clients.producer.KafkaProducer.", "Kafka producer send");
        STAGES.put("org.apache.flink.formats.json.JsonRowDataSerializationSchema.", "Flink JSON serializer");
        STAGES.put("io.columnarkafka.format.arrow.RowDataArrowWriter.", "transpose RowData -> Arrow");
        STAGES.put("io.columnarkafka.format.RecordSlab.", "drain: record bytes copied out of the slab");
        STAGES.put("io.columnarkafka.format.", "columnar encoder");
        STAGES.put("io.columnarkafka.flink.record.PreSerializedRecordSerializer.",
                "encoded record (de)serialized for a network channel");
        STAGES.put("io.columnarkafka.flink.record.EncodedBatchSerializer.",
                "encoded batch (de)serialized for a network channel");
        STAGES.put("io.columnarkafka.flink.record.EncodedBatch",
                "encoded batch: slabs copied in, records copied out");
        STAGES.put("org.apache.flink.table.runtime.typeutils.RowDataSerializer.copy",
                "row copied between chained operators (object reuse off)");
        STAGES.put("org.apache.flink.streaming.runtime.io.RecordWriterOutput.", "row serialized to a network channel");
        STAGES.put("io.columnarkafka.flink.", "columnar sink glue");
        STAGES.put("org.apache.flink.connector.kafka.sink.", "KafkaSink writer (other)");
        STAGES.put("org.apache.flink.streaming.runtime.io.AbstractStreamTaskNetworkInput.",
                "record read from a network channel");
        STAGES.put("org.apache.flink.connector.datagen.", "datagen: row generation");
        STAGES.put("org.apache.flink.streaming.api.functions.source.datagen.", "datagen: source loop");
    }

    private JfrSummary() {}

    /** Re-summarizes a kept recording: {@code JfrSummary <file.jfr> [title]}, printed to stdout. */
    public static void main(String[] args) throws IOException {
        System.out.print(summarize(Path.of(args[0]), args.length > 1 ? args[1] : args[0]));
    }

    static String summarize(Path recording, String title) throws IOException {
        Tally sending = new Tally();
        Tally kafkaIo = new Tally();
        Map<String, Long> byGroup = new LinkedHashMap<>();
        Map<String, Long> otherThreads = new HashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            RecordedThread thread = event.getThread("sampledThread");
            String name = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            String group;
            if (TASK_THREAD.matcher(name).matches() || name.startsWith("bare-producer")) {
                group = "sending threads (Flink tasks / bare producers)";
                sending.add(frames);
            } else if (name.startsWith("kafka-producer-network-thread")) {
                group = "Kafka producer I/O threads";
                kafkaIo.add(frames);
            } else {
                group = "other threads";
                otherThreads.merge(DIGITS.matcher(name).replaceAll("#"), 1L, Long::sum);
            }
            byGroup.merge(group, 1L, Long::sum);
        }
        StringBuilder out = new StringBuilder();
        out.append("# JFR CPU samples: ").append(title).append("\n\n");
        out.append("Samples by thread group:\n");
        byGroup.forEach((group, n) -> out.append(String.format("  %7d  %s%n", n, group)));
        out.append("\n## Sending threads: time by component (innermost non-JDK frame)\n");
        sending.appendTop(out, sending.components, Integer.MAX_VALUE);
        out.append("\n## Sending threads: time by stage\n");
        sending.appendTop(out, sending.stages, Integer.MAX_VALUE);
        out.append("\n## Sending threads: top ").append(TOP).append(" hot methods (self, top frame)\n");
        sending.appendTop(out, sending.self, TOP);
        out.append("\n## Sending threads: top ").append(TOP)
                .append(" methods on the stack (inclusive; Flink task/mailbox plumbing and lambdas omitted)\n");
        sending.appendTop(out, sending.inclusive, TOP);
        out.append("\n## Kafka producer I/O threads: top ").append(TOP).append(" hot methods (self)\n");
        kafkaIo.appendTop(out, kafkaIo.self, TOP);
        out.append("\n## Other threads: top 10 by name (numbers masked)\n");
        otherThreads.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(10)
                .forEach(e -> out.append(String.format("  %7d  %s%n", e.getValue(), e.getKey())));
        return out.toString();
    }

    private static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static boolean plumbing(String method) {
        return method.contains("$$Lambda") || PLUMBING.stream().anyMatch(method::startsWith);
    }

    private static boolean jdk(String method) {
        return method.startsWith("java.") || method.startsWith("jdk.") || method.startsWith("sun.");
    }

    /** Sample counts of one thread group. */
    private static final class Tally {
        long samples;
        final Map<String, Long> self = new HashMap<>();
        final Map<String, Long> inclusive = new HashMap<>();
        final Map<String, Long> components = new HashMap<>();
        final Map<String, Long> stages = new HashMap<>();

        void add(List<RecordedFrame> frames) {
            if (frames.isEmpty()) {
                return;
            }
            samples++;
            self.merge(method(frames.get(0)), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            String component = null;
            for (RecordedFrame frame : frames) {
                String m = method(frame);
                if (!plumbing(m) && seen.add(m)) {
                    inclusive.merge(m, 1L, Long::sum);
                }
                if (component == null && !jdk(m)) {
                    component = component(m);
                }
            }
            components.merge(component == null ? "JDK only" : component, 1L, Long::sum);
            stages.merge(stage(frames), 1L, Long::sum);
        }

        private static String stage(List<RecordedFrame> frames) {
            for (Map.Entry<String, String> stage : STAGES.entrySet()) {
                for (RecordedFrame frame : frames) {
                    if (method(frame).startsWith(stage.getKey())) {
                        return stage.getValue();
                    }
                }
            }
            return "other";
        }

        void appendTop(StringBuilder out, Map<String, Long> counts, int limit) {
            if (samples == 0) {
                out.append("  (no samples)\n");
                return;
            }
            counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(limit)
                    .forEach(e -> out.append(String.format(
                            "  %7d  %5.1f%%  %s%n", e.getValue(), 100.0 * e.getValue() / samples, e.getKey())));
            out.append(String.format("  (%d samples)%n", samples));
        }

        private static String component(String method) {
            for (Map.Entry<String, String> c : COMPONENTS.entrySet()) {
                if (method.startsWith(c.getKey())) {
                    return c.getValue();
                }
            }
            if (method.indexOf('.') == method.lastIndexOf('.')) {
                return "Flink SQL generated code"; // the planner's generated classes have no package
            }
            return "other: " + method.substring(0, Math.max(0, method.lastIndexOf('.')));
        }
    }
}
