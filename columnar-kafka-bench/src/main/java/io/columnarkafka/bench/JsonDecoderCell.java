package io.columnarkafka.bench;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.LongSupplier;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One cell of {@link JsonDecoderComparison} (a dataset at a batch size), in a JVM of its own: Flink's
 * deserializer and the columnar decoder on the same records ({@link JsonDecoderBenchmark}'s setup, whose
 * parity check refuses a decoder whose rows differ from Flink's), timed in rounds of the same wall time per
 * side with the order rotated each round. Per side and round it records rows/s, this thread's CPU per row
 * and bytes allocated per row; round 0 is the warm-up, which the report does not count. A failed parity
 * check is recorded (and nothing timed), so the report shows it as a FAIL row.
 *
 * <p>Usage: {@code JsonDecoderCell <format> <dataset> <batchSize> <rounds> <secondsPerSide> <result.properties>}
 * (format {@code json} or {@code avro-confluent}, see {@link JsonDecoderBenchmark#format}).
 */
public final class JsonDecoderCell {
    static final List<String> SIDES = List.of("flink", "columnar");

    private JsonDecoderCell() {}

    public static void main(String[] args) throws Exception {
        JsonDecoderBenchmark data = new JsonDecoderBenchmark();
        data.format = args[0];
        data.dataset = args[1];
        data.batchSize = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        double seconds = Double.parseDouble(args[4]);
        Path result = Path.of(args[5]);
        Properties out = new Properties();
        data.prepare();
        JsonDecoderBenchmark.Columnar columnar = new JsonDecoderBenchmark.Columnar();
        try {
            columnar.plan(data);
            out.setProperty("parity", "ok");
        } catch (Exception parity) {
            // rows that differ, or a record Flink reads and the decoder rejects
            out.setProperty("parity", parity.getClass().getSimpleName() + ": " + parity.getMessage());
        }
        out.setProperty("inputBytesPerRow", Double.toString(data.inputBytes() / (double) data.batchSize));
        if ("ok".equals(out.getProperty("parity"))) {
            measure(data, columnar, rounds, seconds, out);
        }
        data.tearDown();
        try (OutputStream file = Files.newOutputStream(result)) {
            out.store(file, "JsonDecoderCell " + String.join(" ", args));
        }
    }

    private static void measure(JsonDecoderBenchmark data, JsonDecoderBenchmark.Columnar columnar, int rounds,
                                double seconds, Properties out) throws Exception {
        Blackhole blackhole = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        OutputBytes input = new OutputBytes();
        List<LongSupplier> batches = List.of(
                () -> {
                    try {
                        data.flinkDeserialize(input, blackhole);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return data.batchSize;
                },
                () -> data.columnarDecode(columnar, input));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        for (int round = 0; round < rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round + (round == 0 ? " (warm-up)" : "") + ":");
            for (int k = 0; k < SIDES.size(); k++) {
                int side = (round + k) % SIDES.size();
                long rows = 0;
                long cpuStart = threads.getCurrentThreadCpuTime();
                long allocatedStart = threads.getThreadAllocatedBytes(thread);
                long start = System.nanoTime();
                long end = start + (long) (seconds * 1e9);
                while (System.nanoTime() < end) {
                    rows += batches.get(side).getAsLong();
                }
                long wall = System.nanoTime() - start;
                long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
                long allocated = threads.getThreadAllocatedBytes(thread) - allocatedStart;
                String key = SIDES.get(side) + "." + round + ".";
                out.setProperty(key + "rowsPerSecond", Double.toString(rows * 1e9 / wall));
                out.setProperty(key + "cpuNanosPerRow", Double.toString(cpu / (double) rows));
                out.setProperty(key + "allocatedBytesPerRow", Double.toString(allocated / (double) rows));
                line.append(String.format(Locale.ROOT, " %s %,.0f rows/s", SIDES.get(side), rows * 1e9 / wall));
            }
            System.out.println(line);
        }
        out.setProperty("rounds", Integer.toString(rounds));
    }
}
