import java.nio.file.*;
import java.util.*;
import jdk.jfr.consumer.*;

/**
 * Splits a Nexmark cell's JFR execution samples into pipeline stages that add up to 100 % per task, so a stock and a
 * columnar cell of a stateful query can be compared stage by stage: the source task (stock: Flink's JSON decode and
 * generated Calc; columnar: the scan's decode, the calc, the Arrow-to-rows edge), the hash exchange, Flink's keyed
 * operators and their state, and the sink end (stock: Flink's JSON serialization schema; columnar: the transpose into
 * Arrow, the batch encoders and the batch handling), Kafka's producer, Flink's runtime. Each sample goes to the
 * innermost frame that names a stage (so state access inside an aggregate counts as state, a string copy inside our
 * transpose as the transpose; our format helpers (tokenizer, readers, writers, Arrow access) and the JDK name no stage
 * and go to their caller's). Run with the JDK's single-file launcher:
 *
 *   java columnar-kafka-bench/scripts/JfrStages.java recording.jfr...
 *
 * Recordings as for JfrCellProfile (CHILD_JAVA_OPTS with -XX:StartFlightRecording; add
 * -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints for frames between safepoints).
 */
public class JfrStages {
    /** Frame prefix (class, or class.method) to stage; the first prefix a frame starts with names its stage. */
    static final String[][] STAGES = {
        // ours
        {"io.columnarkafka.client.decode.ChunkDecoder", "ours: scan decode"},
        {"io.columnarkafka.format.json.JsonBatchDecoder", "ours: scan decode"},
        {"io.columnarkafka.flink.table.ArrowBatchWatermarks", "ours: scan watermarks"},
        {"io.columnarkafka.flink.calc.", "ours: calc"},
        {"io.columnarkafka.flink.table.ArrowInPlaceRowView", "ours: edge (Arrow to binary rows)"},
        {"io.columnarkafka.flink.table.ArrowToRowsOperator", "ours: edge (Arrow to binary rows)"},
        {"io.columnarkafka.flink.table.RowViewOutput", "ours: edge (Arrow to binary rows)"},
        {"io.columnarkafka.format.arrow.RowDataArrowWriter", "ours: sink transpose (RowData to Arrow)"},
        {"io.columnarkafka.format.arrow.RowTranspose", "ours: sink transpose (RowData to Arrow)"},
        {"io.columnarkafka.format.arrow.FieldWriter", "ours: sink transpose (RowData to Arrow)"},
        {"io.columnarkafka.format.arrow.ScalarWriters", "ours: sink transpose (RowData to Arrow)"},
        {"io.columnarkafka.format.arrow.NestedWriters", "ours: sink transpose (RowData to Arrow)"},
        {"io.columnarkafka.format.arrow.TimestampWriter", "ours: sink transpose (RowData to Arrow)"},
        {"io.columnarkafka.format.json.JsonBatchEncoder", "ours: sink encode (Arrow to JSON)"},
        {"io.columnarkafka.format.json.ChangelogJsonBatchEncoder", "ours: sink encode (Arrow to JSON)"},
        {"io.columnarkafka.format.RowByRowBatchEncoder", "ours: sink encode (Arrow to JSON)"},
        {"io.columnarkafka.flink.table.RowDataEncodeOperator", "ours: sink batch handling (batch, copy-out, split)"},
        {"io.columnarkafka.flink.table.SplitEncodedBatch", "ours: sink batch handling (batch, copy-out, split)"},
        {"io.columnarkafka.flink.table.TableRecordSerializationSchema", "ours: sink batch handling (batch, copy-out, split)"},
        {"io.columnarkafka.flink.record.", "ours: sink batch handling (batch, copy-out, split)"},
        {"io.columnarkafka.format.RecordSlab", "ours: sink batch handling (batch, copy-out, split)"},
        {"io.columnarkafka.flink.source.", "ours: scan batch handling (fetch chunks, emit)"},
        {"io.columnarkafka.flink.", "ours: other"},
        // Flink's formats and connector
        {"org.apache.flink.formats.json.JsonRowDataDeserializationSchema", "stock: Flink JSON decode"},
        {"org.apache.flink.formats.json.JsonParser", "stock: Flink JSON decode"},
        {"org.apache.flink.formats.json.JsonToRowData", "stock: Flink JSON decode"},
        {"org.apache.flink.formats.json.", "stock: Flink JSON encode"},
        {"DynamicKafkaRecordSerializationSchema", "stock: Flink Kafka record serialization"},
        {"org.apache.flink.connector.kafka.source.reader.deserializer", "stock: Flink Kafka record deserialization"},
        {"DynamicKafkaDeserializationSchema", "stock: Flink Kafka record deserialization"},
        {"org.apache.flink.connector.kafka.sink.KafkaWriter", "Flink KafkaSink writer"},
        {"org.apache.flink.connector.kafka.source.", "Flink Kafka source reader"},
        // Kafka
        {"org.apache.kafka.clients.producer.", "Kafka producer (send on the task thread)"},
        {"org.apache.kafka.clients.consumer.", "Kafka consumer"},
        {"org.apache.kafka.", "Kafka other"},
        // Flink's SQL operators and state
        {"org.apache.flink.runtime.state.", "Flink keyed state (heap)"},
        {"org.apache.flink.streaming.api.operators.StreamOperatorStateHandler", "Flink keyed state (heap)"},
        {"org.apache.flink.table.runtime.operators.rank.", "Flink Rank (Top-N)"},
        {"org.apache.flink.table.runtime.operators.aggregate.", "Flink GroupAggregate"},
        {"GroupAggsHandler", "Flink GroupAggregate"},
        {"org.apache.flink.table.runtime.operators.join.", "Flink Join"},
        {"RecordComparator", "Flink Rank (Top-N)"},
        {"StreamExecCalc", "Flink generated Calc / projection"},
        {"WatermarkGenerator", "Flink generated watermarks"},
        {"org.apache.flink.table.runtime.operators.sink.", "Flink sink operators (ConstraintEnforcer)"},
        {"org.apache.flink.table.runtime.typeutils.", "Flink RowData copy / serialize"},
        {"org.apache.flink.table.data.", "Flink RowData copy / serialize"},
        {"org.apache.flink.core.memory.", "Flink RowData copy / serialize"},
        {"org.apache.flink.table.runtime.keyselector.", "Flink exchange: key selection"},
        {"KeyProjection", "Flink exchange: key selection"},
        {"org.apache.flink.runtime.io.network.api.writer.", "Flink exchange: write"},
        {"org.apache.flink.streaming.runtime.io.RecordWriterOutput", "Flink exchange: write"},
        {"org.apache.flink.streaming.runtime.partitioner.", "Flink exchange: write"},
        {"org.apache.flink.runtime.io.network.", "Flink exchange: read"},
        {"org.apache.flink.streaming.runtime.io.", "Flink exchange: read"},
        {"org.apache.flink.streaming.runtime.tasks.CopyingChainingOutput", "Flink chaining"},
        {"org.apache.flink.", "Flink runtime (other)"},
    };

    /**
     * Stages a frame names only when no caller is ours: Flink's row classes and serializers run inside our edge and
     * transpose as much as inside Flink's chaining and exchange.
     */
    static final Set<String> WEAK = Set.of("Flink RowData copy / serialize");

    /** Our operators' and the scan's entry points, counted inclusively (everything they call, Flink's code too). */
    static final String[] ENTRIES = {"JsonBatchDecoder.decode", "ArrowBatchWatermarks.rowRaisingTheWatermarkLast",
        "ColumnarCalcOperator.processElement", "ArrowToRowsOperator.processElement", "RowDataEncodeOperator.processElement",
        "RowDataEncodeOperator.sendBatch", "SplitEncodedBatch.flatMap", "CopyingChainingOutput.pushToOperator",
        "RecordWriterOutput.collect", "KafkaProducer.send", "DefaultWatermarkGenerator.onEvent"};

    static String stage(List<RecordedFrame> frames) {
        String weak = null;
        for (RecordedFrame frame : frames) {
            String method = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            if (method.startsWith("org.apache.flink.shaded.")) {
                continue; // Jackson, Guava, Netty: their caller's stage
            }
            for (String[] s : STAGES) {
                if (method.startsWith(s[0]) || (!s[0].contains(".") && method.contains(s[0]))) {
                    if (WEAK.contains(s[1])) {
                        weak = weak == null ? s[1] : weak;
                        break;
                    }
                    return weak == null || s[1].startsWith("ours") ? s[1] : weak;
                }
            }
        }
        return weak != null ? weak : "JDK / other";
    }

    /** The innermost frame outside Flink's row classes, serializers and memory segments, and the JDK. */
    static String caller(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (!type.startsWith("org.apache.flink.table.data.") && !type.startsWith("org.apache.flink.table.runtime.typeutils.")
                    && !type.startsWith("org.apache.flink.core.memory.") && !type.startsWith("java.")
                    && !type.startsWith("org.apache.flink.api.common.typeutils.")) {
                return type.replaceAll("^.*\\.", "") + "." + frame.getMethod().getName();
            }
        }
        return "?";
    }

    static String group(String thread) {
        if (thread.matches(".*\\(\\d+/\\d+\\)#\\d+$")) {
            return "task " + thread.replaceAll(" ?\\(\\d+/\\d+\\)#\\d+$", "").replaceAll("\\[\\d+\\]", "");
        }
        if (thread.contains("Source Data Fetcher")) return "Kafka fetcher thread";
        if (thread.startsWith("kafka-producer-network-thread")) return "Kafka producer I/O thread";
        return "other threads";
    }

    public static void main(String[] args) throws Exception {
        for (String file : args) {
            Map<String, Map<String, Integer>> byGroup = new TreeMap<>();
            Map<String, Integer> ours = new HashMap<>();
            Map<String, Integer> all = new HashMap<>();
            Map<String, Integer> runtime = new HashMap<>();
            Map<String, Integer> copies = new HashMap<>();
            Map<String, Integer> entries = new LinkedHashMap<>();
            int total = 0;
            for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(file))) {
                if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                    continue;
                }
                RecordedThread thread = event.getThread("sampledThread");
                String name = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
                if (name.equals("main")) {
                    continue; // start-up and planning, before the job
                }
                List<RecordedFrame> frames = event.getStackTrace().getFrames();
                String stage = stage(frames);
                String group = group(name);
                byGroup.computeIfAbsent(group, k -> new HashMap<>()).merge(stage, 1, Integer::sum);
                all.merge(stage, 1, Integer::sum);
                total++;
                if (stage.equals("Flink runtime (other)") && group.startsWith("task ")) {
                    for (RecordedFrame frame : frames) {
                        String type = frame.getMethod().getType().getName();
                        if (type.startsWith("org.apache.flink")) {
                            runtime.merge(type.replaceAll("^.*\\.", "") + "." + frame.getMethod().getName(), 1,
                                    Integer::sum);
                            break;
                        }
                    }
                }
                Set<String> held = new HashSet<>();
                for (RecordedFrame frame : frames) {
                    String method = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
                    for (String entry : ENTRIES) {
                        if (method.endsWith(entry)) {
                            held.add(entry);
                        }
                    }
                }
                held.forEach(entry -> entries.merge(entry, 1, Integer::sum));
                if (WEAK.contains(stage) && group.startsWith("task ")) {
                    copies.merge(caller(frames), 1, Integer::sum);
                }
                if (stage.startsWith("ours")) {
                    for (RecordedFrame frame : frames) {
                        String type = frame.getMethod().getType().getName();
                        if (type.startsWith("io.columnarkafka") || type.startsWith("org.apache.arrow")) {
                            ours.merge(type.replaceAll("^.*\\.", "") + "." + frame.getMethod().getName(), 1,
                                    Integer::sum);
                            break;
                        }
                    }
                }
            }
            System.out.println("# " + file + " (" + total + " execution samples outside the main thread)");
            print("all threads", all, total);
            final int t = total;
            byGroup.forEach((group, stages) -> print(group, stages, t));
            print("task threads' Flink runtime (other): innermost Flink method", runtime, total);
            print("task threads' Flink RowData copy / serialize: first caller outside Flink's row classes", copies,
                    total);
            System.out.printf("%n## inclusive samples of entry points (each counts everything it calls)%n");
            entries.forEach((entry, n) -> System.out.printf("  %6d %5.1f %%  %s%n", n, 100.0 * n / Math.max(1, t), entry));
            print("ours: innermost io.columnarkafka / Arrow method (self-ish)", ours, total);
            System.out.println();
        }
    }

    static void print(String title, Map<String, Integer> counts, int total) {
        int sum = counts.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("%n## %s: %d samples, %.1f %% of the cell%n", title, sum, 100.0 * sum / Math.max(1, total));
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(25)
                .forEach(e -> System.out.printf("  %6d %5.1f %%  %s%n", e.getValue(), 100.0 * e.getValue() / Math.max(1, sum),
                        e.getKey()));
    }
}
