package io.columnarkafka.bench;

import io.columnarkafka.bench.SmallBatchChain.Stage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The cost of one source step by batch size ({@code bin/bench-batch-size}): thread CPU time and heap bytes
 * allocated per batch and per row of {@link SmallBatchChain} at each size and stage, one JVM, one thread, an
 * uncounted warm-up round, then rounds with the sizes in rotated order; medians (min–max) over the rounds. Thread
 * CPU time, not wall time: other processes' load distorts it least. What a batch costs whatever its rows is what
 * the small sizes show above the large ones.
 */
public final class BatchSizeCurve {
    private static final int[] DEFAULT_SIZES = {1, 8, 64, 512, 4096};
    /** Each slice decodes at least this many rows and at least {@link #MIN_BATCHES} batches. */
    private static final int SLICE_ROWS = 16_384;
    private static final int MIN_BATCHES = 32;
    /** The source step's stages the curve is about (the sink's encode is {@link ReadPhaseRound}'s). */
    private static final Stage[] STAGES = {Stage.DECODE, Stage.CALC, Stage.EDGE};

    private BatchSizeCurve() {}

    public static void main(String[] args) throws IOException {
        int rounds = 5;
        int warmup = 1;
        int[] sizes = DEFAULT_SIZES;
        Path out = null;
        String note = "";
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--sizes" -> sizes = java.util.Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--out" -> out = Path.of(value);
                case "--note" -> note = value;
                default -> throw new IllegalArgumentException("usage: BatchSizeCurve [--rounds N] [--warmup N]"
                        + " [--sizes 1,8,...] [--out FILE.md] [--note TEXT]; unknown " + args[i]);
            }
        }
        double loadBefore = MachineLoad.oneMinute(Files.readString(Path.of("/proc/loadavg")));
        Map<Integer, Map<Stage, List<double[]>>> figures = new LinkedHashMap<>();
        try (BufferAllocator root = new RootAllocator()) {
            List<SmallBatchChain> chains = new ArrayList<>();
            for (int size : sizes) {
                chains.add(new SmallBatchChain(size, root));
                figures.put(size, new EnumMap<>(Stage.class));
            }
            for (int round = -warmup; round < rounds; round++) {
                for (int k = 0; k < chains.size(); k++) {
                    SmallBatchChain chain = chains.get(Math.floorMod(k + round, chains.size()));
                    for (Stage stage : STAGES) {
                        double[] slice = slice(chain, stage);
                        if (round >= 0) {
                            figures.get(chain.batchSize()).computeIfAbsent(stage, s -> new ArrayList<>()).add(slice);
                        }
                    }
                }
                System.err.printf(Locale.ROOT, "round %s done%n", round < 0 ? "warm-up" : round + 1);
            }
            chains.forEach(SmallBatchChain::close);
        }
        double loadAfter = MachineLoad.oneMinute(Files.readString(Path.of("/proc/loadavg")));
        String report = report(figures, rounds, warmup, note, loadBefore, loadAfter);
        System.out.print(report);
        if (out != null) {
            Files.writeString(out, report);
        }
    }

    /** {ns CPU per batch, bytes allocated per batch} over one slice. */
    private static double[] slice(SmallBatchChain chain, Stage stage) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int batches = Math.max(MIN_BATCHES, SLICE_ROWS / chain.batchSize());
        long sink = 0;
        long bytesBefore = threads.getCurrentThreadAllocatedBytes();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        for (int b = 0; b < batches; b++) {
            sink += chain.step(stage);
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        long bytes = threads.getCurrentThreadAllocatedBytes() - bytesBefore;
        if (sink == Long.MIN_VALUE) {
            System.err.println(sink);
        }
        return new double[] {(double) cpu / batches, (double) bytes / batches};
    }

    private static String report(Map<Integer, Map<Stage, List<double[]>>> figures, int rounds, int warmup,
            String note, double loadBefore, double loadAfter) {
        StringBuilder s = new StringBuilder();
        s.append("# Source step cost by batch size\n\n").append(MachineLoad.sentence(loadBefore, loadAfter));
        if (!note.isEmpty()) {
            s.append(' ').append(note);
        }
        s.append("\n\nOne thread, one JVM (`bin/bench-batch-size`): each batch is a Kafka chunk of Nexmark events"
                + " (Flink json, seed 42) through the planner scan's source step (`ChunkEmitter`: decode into Arrow,"
                + " the batch lent downstream, offset, step metrics), then nothing (decode), q0's bid-view columnar"
                + " calc (+ calc), or the calc and the Arrow-to-rows edge writing each selected row as `BinaryRowData`"
                + " (+ edge). Thread CPU time and heap bytes allocated per batch, ")
                .append(warmup).append(" uncounted warm-up round(s), then ").append(rounds)
                .append(" rounds with the sizes rotated; median (min–max) over the rounds.\n\n");
        s.append("| batch rows | stage | CPU µs per batch | CPU ns per row | heap B per batch |\n");
        s.append("|---:|---|---:|---:|---:|\n");
        figures.forEach((size, byStage) -> byStage.forEach((stage, slices) -> {
            Spread cpu = Spread.of(slices.stream().map(f -> f[0]).toList());
            Spread bytes = Spread.of(slices.stream().map(f -> f[1]).toList());
            s.append(String.format(Locale.ROOT, "| %d | %s | %.1f (%.1f–%.1f) | %.0f (%.0f–%.0f) | %,.0f |%n", size,
                    stage.name().toLowerCase(Locale.ROOT), cpu.median() / 1e3, cpu.min() / 1e3, cpu.max() / 1e3,
                    cpu.median() / size, cpu.min() / size, cpu.max() / size, bytes.median()));
        }));
        return s.toString();
    }
}
