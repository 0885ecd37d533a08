import java.nio.file.*;
import java.util.*;
import jdk.jfr.consumer.*;

/**
 * Per task (thread group of a Flink task, subtasks together), how many of a JFR recording's execution samples hold
 * each named frame anywhere in their stack (inclusive), so a chain's operators can be compared between a stock and
 * a columnar cell. Run with the JDK's single-file launcher:
 *
 *   java columnar-kafka-bench/scripts/JfrTaskFrames.java recording.jfr...
 *
 * Recordings as for JfrCellProfile (CHILD_JAVA_OPTS with -XX:StartFlightRecording; add
 * -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints for frames between safepoints).
 */
public class JfrTaskFrames {
    static final String[] FRAMES = {"StreamTask.invoke", "WatermarkGenerator", "ArrowBatchWatermarks",
        "ChunkDecoder.decode", "JsonRowDataDeserializationSchema", "ColumnarCalcOperator.processElement",
        "StreamExecCalc", "ArrowToRowsOperator.processElement", "ArrowLocalWindowAggOperator.processElement",
        "CopyingChainingOutput.pushToOperator", "RowDataSerializer.copy",
        "LocalSlicingWindowAggOperator.processElement", "RecordsWindowBuffer.addElement", "RecordsWindowBuffer.flush",
        "RecordWriterOutput.collect", "WindowJoinOperator", "AbstractStreamTaskNetworkInput.emitNext",
        // the hand-over into a keyed exchange, and the tasks behind it
        "ArrowInPlaceRowView.binaryRow", "ArrowRowView.row", "ChannelSelectorRecordWriter.emit",
        "KeyGroupStreamPartitioner.selectChannel", "BinaryRowDataKeySelector.getKey", "RecordWriter.serializeRecord",
        "RowDataSerializer.serialize", "RowDataSerializer.toBinaryRow", "BinaryRowDataSerializer.serialize",
        "RecordWriter.emit", "BufferBuilder.appendAndCommit", "RecordWriter.flush", "BinaryRowDataSerializer.deserialize",
        "StreamingJoinOperator", "GroupAggFunction", "KeyedProcessOperator", "AppendOnlyTopNFunction",
        "RetractableTopNFunction", "FastTop1Function", "UpdatableTopNFunction", "ColumnarEncode", "RowDataEncodeOperator",
        "KafkaWriter", "SinkWriterOperator"};

    public static void main(String[] args) throws Exception {
        for (String file : args) {
            Map<String, Map<String, Integer>> byTask = new TreeMap<>();
            for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(file))) {
                if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                RecordedThread thread = event.getThread("sampledThread");
                String name = thread == null ? null : thread.getJavaName();
                if (name == null || !name.matches(".*\\(\\d+/\\d+\\)#\\d+$")) {
                    continue; // not a task thread
                }
                String task = name.replaceAll(" ?\\(\\d+/\\d+\\)#\\d+$", "").replaceAll("\\[\\d+\\]", "");
                Map<String, Integer> counts = byTask.computeIfAbsent(task, k -> new LinkedHashMap<>());
                counts.merge("all samples", 1, Integer::sum);
                Set<String> held = new HashSet<>();
                for (RecordedFrame frame : event.getStackTrace().getFrames()) {
                    String method = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
                    for (String wanted : FRAMES) {
                        if (method.contains(wanted)) {
                            held.add(wanted);
                        }
                    }
                }
                held.forEach(frame -> counts.merge(frame, 1, Integer::sum));
                String pusher = chainedCopyPusher(event.getStackTrace().getFrames());
                if (pusher != null) {
                    counts.merge("chained copy, pushed by " + pusher, 1, Integer::sum);
                }
            }
            System.out.println("# " + file);
            byTask.forEach((task, counts) -> {
                System.out.println("  " + task);
                counts.forEach((frame, n) -> System.out.printf("    %6d  %s%n", n, frame));
            });
        }
    }

    /**
     * For a sample inside the copy a {@code CopyingChainingOutput} makes before handing a record to the next chained
     * operator (object reuse off), the method of the operator that emitted the record (the first operator method
     * outside the output's frames); null for any other sample. Tells which hop of a chain the copies cost.
     */
    static String chainedCopyPusher(List<RecordedFrame> frames) {
        int push = -1;
        for (int i = 0; i < frames.size() && push < 0; i++) {
            if (method(frames.get(i)).endsWith("CopyingChainingOutput.pushToOperator")) {
                push = i;
            }
        }
        if (push < 0) {
            return null;
        }
        boolean copying = false;
        for (int i = 0; i < push; i++) {
            String name = frames.get(i).getMethod().getName();
            if (name.startsWith("processElement") || name.equals("flatMap")) {
                return null; // already inside the next operator
            }
            copying |= name.equals("copy");
        }
        if (!copying) {
            return null;
        }
        for (int i = push + 1; i < frames.size(); i++) {
            String name = frames.get(i).getMethod().getName();
            String type = frames.get(i).getMethod().getType().getName();
            if (name.startsWith("processElement") || name.equals("flatMap") || name.equals("onEventTime")
                    || name.equals("onTimer") || name.equals("emitRecord") || (name.startsWith("collect") && type.contains("TopN"))) {
                return type.substring(type.lastIndexOf('.') + 1).replaceAll("\\$\\d+$", "") + "." + name;
            }
        }
        return "?";
    }

    static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }
}
