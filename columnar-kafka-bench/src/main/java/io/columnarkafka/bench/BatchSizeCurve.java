package io.columnarkafka.bench;

import io.columnarkafka.bench.SmallBatchChain.DecoderBuffers;
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
 * The cost of one source step by batch size ({@code bin/bench-batch-size}): thread CPU time, heap bytes allocated and
 * minor page faults per batch and per row of {@link SmallBatchChain} at each size and stage, one JVM, one thread, an
 * uncounted warm-up round, then rounds with the sizes in rotated order; medians (min–max) over the rounds. Thread
 * CPU time, not wall time: other processes' load distorts it least. What a batch costs whatever its rows is what
 * the small sizes show above the large ones. With {@code --buffers paired} every size runs twice, its decoder keeping
 * buffers and taking new ones ({@link DecoderBuffers}), the two slices of a stage back to back in an order rotated by
 * round, and the report adds kept ÷ fresh paired per round. The JVM must pre-touch its heap ({@link
 * ThreadPageFaults}).
 */
public final class BatchSizeCurve {
    private static final int[] DEFAULT_SIZES = {1, 8, 64, 512, 4096};
    /** Each slice decodes at least this many rows and at least {@link #MIN_BATCHES} batches. */
    private static final int SLICE_ROWS = 16_384;
    private static final int MIN_BATCHES = 32;
    /** The source step's stages the curve is about (the sink's encode is {@link ReadPhaseRound}'s). */
    private static final Stage[] STAGES = {Stage.DECODE, Stage.CALC, Stage.EDGE};
    private static final int CPU = 0;
    private static final int HEAP = 1;
    private static final int FAULTS = 2;

    private BatchSizeCurve() {}

    public static void main(String[] args) throws IOException {
        ThreadPageFaults.requirePreTouchedHeap();
        int rounds = 5;
        int warmup = 1;
        int[] sizes = DEFAULT_SIZES;
        List<DecoderBuffers> modes = List.of(DecoderBuffers.KEPT);
        Path out = null;
        String note = "";
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--sizes" -> sizes = java.util.Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--buffers" -> modes = switch (value) {
                    case "kept" -> List.of(DecoderBuffers.KEPT);
                    case "fresh" -> List.of(DecoderBuffers.FRESH);
                    case "paired" -> List.of(DecoderBuffers.KEPT, DecoderBuffers.FRESH);
                    default -> throw new IllegalArgumentException("--buffers is kept, fresh or paired, not " + value);
                };
                case "--out" -> out = Path.of(value);
                case "--note" -> note = value;
                default -> throw new IllegalArgumentException("usage: BatchSizeCurve [--rounds N] [--warmup N]"
                        + " [--sizes 1,8,...] [--buffers kept|fresh|paired] [--out FILE.md] [--note TEXT]; unknown "
                        + args[i]);
            }
        }
        double loadBefore = MachineLoad.oneMinute(Files.readString(Path.of("/proc/loadavg")));
        /** Per size, the chains of each decoder-buffers mode; per chain and stage, the counted slices. */
        Map<Integer, List<SmallBatchChain>> chainsBySize = new LinkedHashMap<>();
        Map<SmallBatchChain, Map<Stage, List<double[]>>> figures = new LinkedHashMap<>();
        try (BufferAllocator root = new RootAllocator()) {
            for (int size : sizes) {
                List<SmallBatchChain> chains = new ArrayList<>();
                for (DecoderBuffers mode : modes) {
                    SmallBatchChain chain = new SmallBatchChain(size, root, CalcBenchmark.q0(), mode);
                    chains.add(chain);
                    figures.put(chain, new EnumMap<>(Stage.class));
                }
                chainsBySize.put(size, chains);
            }
            List<List<SmallBatchChain>> bySize = new ArrayList<>(chainsBySize.values());
            for (int round = -warmup; round < rounds; round++) {
                for (int k = 0; k < bySize.size(); k++) {
                    List<SmallBatchChain> chains = bySize.get(Math.floorMod(k + round, bySize.size()));
                    for (Stage stage : STAGES) {
                        for (int m = 0; m < chains.size(); m++) {
                            SmallBatchChain chain = chains.get(Math.floorMod(m + round, chains.size()));
                            double[] slice = slice(chain, stage);
                            if (round >= 0) {
                                figures.get(chain).computeIfAbsent(stage, s -> new ArrayList<>()).add(slice);
                            }
                        }
                    }
                }
                System.err.printf(Locale.ROOT, "round %s done%n", round < 0 ? "warm-up" : round + 1);
            }
            figures.keySet().forEach(SmallBatchChain::close);
        }
        double loadAfter = MachineLoad.oneMinute(Files.readString(Path.of("/proc/loadavg")));
        String report = report(chainsBySize, figures, rounds, warmup, note, loadBefore, loadAfter);
        System.out.print(report);
        if (out != null) {
            Files.writeString(out, report);
        }
    }

    /** {ns CPU per batch, bytes allocated per batch, minor page faults per batch} over one slice. */
    private static double[] slice(SmallBatchChain chain, Stage stage) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int batches = Math.max(MIN_BATCHES, SLICE_ROWS / chain.batchSize());
        long sink = 0;
        long faultsBefore = ThreadPageFaults.minor();
        long bytesBefore = threads.getCurrentThreadAllocatedBytes();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        for (int b = 0; b < batches; b++) {
            sink += chain.step(stage);
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        long bytes = threads.getCurrentThreadAllocatedBytes() - bytesBefore;
        long faults = ThreadPageFaults.minor() - faultsBefore;
        if (sink == Long.MIN_VALUE) {
            System.err.println(sink);
        }
        double[] slice = new double[3];
        slice[CPU] = (double) cpu / batches;
        slice[HEAP] = (double) bytes / batches;
        slice[FAULTS] = (double) faults / batches;
        return slice;
    }

    private static String report(Map<Integer, List<SmallBatchChain>> chainsBySize,
            Map<SmallBatchChain, Map<Stage, List<double[]>>> figures, int rounds, int warmup, String note,
            double loadBefore, double loadAfter) {
        StringBuilder s = new StringBuilder();
        s.append("# Source step cost by batch size\n\n").append(MachineLoad.sentence(loadBefore, loadAfter));
        if (!note.isEmpty()) {
            s.append(' ').append(note);
        }
        s.append("\n\nOne thread, one JVM (`bin/bench-batch-size`, heap pre-touched): each batch is a Kafka chunk of"
                + " Nexmark events (Flink json, seed 42) through the planner scan's source step (`ChunkEmitter`:"
                + " decode into Arrow, the batch lent downstream, offset, step metrics), then nothing (decode), q0's"
                + " bid-view columnar calc (+ calc), or the calc and the Arrow-to-rows edge writing each selected row"
                + " as `BinaryRowData` (+ edge). Decoder buffers: kept (the decoder builds each batch in the buffers"
                + " of the batch before) or fresh (new buffers per batch, the vector objects reused). Thread CPU time,"
                + " heap bytes allocated and minor page faults per batch, ")
                .append(warmup).append(" uncounted warm-up round(s), then ").append(rounds)
                .append(" rounds with the sizes rotated (and kept and fresh back to back, their order rotated);"
                        + " median (min–max) over the rounds.\n\n");
        s.append("| batch rows | decoder buffers | stage | CPU µs per batch | CPU ns per row | heap B per batch"
                + " | page faults per batch |\n");
        s.append("|---:|---|---|---:|---:|---:|---:|\n");
        figures.forEach((chain, byStage) -> byStage.forEach((stage, slices) -> {
            Spread cpu = Spread.of(column(slices, CPU));
            int size = chain.batchSize();
            s.append(String.format(Locale.ROOT, "| %d | %s | %s | %.1f (%.1f–%.1f) | %.0f (%.0f–%.0f) | %,.0f | %.2f |%n",
                    size, chain.buffers().name().toLowerCase(Locale.ROOT), stage.name().toLowerCase(Locale.ROOT),
                    cpu.median() / 1e3, cpu.min() / 1e3, cpu.max() / 1e3, cpu.median() / size, cpu.min() / size,
                    cpu.max() / size, Spread.of(column(slices, HEAP)).median(),
                    Spread.of(column(slices, FAULTS)).median()));
        }));
        if (chainsBySize.values().iterator().next().size() == 2) {
            s.append("\n## Kept ÷ fresh, paired per round\n\n| batch rows | stage | CPU per batch, kept ÷ fresh:"
                    + " median (min–max) | heap B per batch kept / fresh |\n|---:|---|---:|---:|\n");
            chainsBySize.forEach((size, chains) -> {
                for (Stage stage : STAGES) {
                    List<double[]> kept = figures.get(chains.get(0)).get(stage);
                    List<double[]> fresh = figures.get(chains.get(1)).get(stage);
                    List<Double> ratios = new ArrayList<>();
                    for (int r = 0; r < kept.size(); r++) {
                        ratios.add(kept.get(r)[CPU] / fresh.get(r)[CPU]);
                    }
                    Spread ratio = Spread.of(ratios);
                    s.append(String.format(Locale.ROOT, "| %d | %s | **%.2f** (%.2f–%.2f) | %,.0f / %,.0f |%n",
                            size, stage.name().toLowerCase(Locale.ROOT), ratio.median(), ratio.min(), ratio.max(),
                            Spread.of(column(kept, HEAP)).median(), Spread.of(column(fresh, HEAP)).median()));
                }
            });
        }
        return s.toString();
    }

    private static List<Double> column(List<double[]> slices, int column) {
        return slices.stream().map(f -> f[column]).toList();
    }
}
