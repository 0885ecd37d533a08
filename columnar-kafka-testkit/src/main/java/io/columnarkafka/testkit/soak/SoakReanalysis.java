package io.columnarkafka.testkit.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the heap check of {@link SoakReport} again on a soak's committed data ({@code <base>-heap.csv} and
 * {@code <base>-faults.csv}), for a run made before the check changed: writes {@code <base>-reanalysis.md} (the heap
 * section and its verdict; the other checks need the live cluster and stay as {@code <base>.md} reports them) and
 * draws {@code <base>.svg} again with {@link SoakPlot}.
 *
 * <p>Usage: {@code SoakReanalysis <base path> [slope limit MiB/min, default 0.25]}, e.g.
 * {@code bench-results/soak-2026-12-01-20min}; {@code bin/soak --reanalyse <base path>} runs it.
 */
public final class SoakReanalysis {
    private SoakReanalysis() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: SoakReanalysis <base path, e.g. bench-results/soak-2026-12-01-20min>"
                    + " [slope limit MiB/min]");
            System.exit(2);
        }
        Path base = Path.of(args[0]);
        double limit = (args.length == 2 ? Double.parseDouble(args[1]) : 0.25) * 1024 * 1024;
        String name = base.getFileName().toString();
        List<HeapSample> heap = SoakReport.readHeap(base.resolveSibling(name + "-heap.csv"));
        List<SoakFault> faults = SoakReport.readFaults(base.resolveSibling(name + "-faults.csv"));
        Path original = base.resolveSibling(name + ".md");
        String title = Files.readAllLines(original, StandardCharsets.UTF_8).get(0).replaceFirst("^# ", "");
        boolean passed = SoakReport.heapTrendPasses(heap, faults, limit);
        String md = "# Heap check re-run: " + title + "\n\n"
                + "The heap samples and faults of [" + name + ".md](" + name + ".md) analysed again by `SoakReanalysis`"
                + " with the heap check fitted per phase between faults. The other checks are as that report gives"
                + " them; this file replaces only its heap check.\n\n"
                + "| check | result |\n|---|---|\n| " + SoakReport.heapCheckName(limit) + " | "
                + (passed ? "pass" : "FAIL") + " |\n\n"
                + SoakReport.heapAnalysis(heap, faults, limit)
                + "\n![heap after full GC](" + name + ".svg)\n";
        Path out = base.resolveSibling(name + "-reanalysis.md");
        Files.writeString(out, md, StandardCharsets.UTF_8);
        Files.writeString(base.resolveSibling(name + ".svg"), SoakPlot.svg(title, heap, faults),
                StandardCharsets.UTF_8);
        System.out.println((passed ? "PASS " : "FAIL ") + out);
    }
}
