package io.columnarkafka.testkit.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of a soak and its files: {@code <base>.md} (verdict and tables), {@code <base>-heap.csv} (every
 * heap-after-GC sample), {@code <base>-faults.csv} and {@code <base>.svg} (the heap plot, from {@link SoakPlot}).
 *
 * @param configuration what ran (duration, rate, fault interval, sink), one line
 * @param expectedRows rows the job wrote
 * @param lost ids never read {@code read_committed}
 * @param duplicated ids read more than once
 * @param openTransactions transactions of the sink still open at the end
 * @param arrowBytes Arrow bytes still allocated at the end, by task manager (as each reported it)
 * @param taskManagers how many task managers should have reported Arrow memory
 * @param heap heap after full GC samples
 * @param faults the faults injected, with their recovery times
 * @param slopeLimitBytesPerMinute the largest pooled heap slope that counts as no growth trend
 */
public record SoakReport(String configuration, long expectedRows, long lost, long duplicated, int openTransactions,
                         Map<String, Long> arrowBytes, int taskManagers, List<HeapSample> heap,
                         List<SoakFault> faults, double slopeLimitBytesPerMinute) {

    /** The checks of issue #13's soak, each with whether it passed. */
    public Map<String, Boolean> checks() {
        HeapTrend.Slope pooled = HeapTrend.pooled(heap);
        return Map.of(
                "0 lost read_committed", lost == 0,
                "0 duplicated read_committed", duplicated == 0,
                "no transaction left open", openTransactions == 0,
                "output resumed after every fault", !faults.isEmpty()
                        && faults.stream().allMatch(f -> f.recoveryMillis() >= 0),
                "Arrow memory 0 on every task manager", arrowBytes.size() == taskManagers
                        && arrowBytes.values().stream().allMatch(b -> b == 0),
                "no heap growth trend (pooled slope <= "
                        + mib(slopeLimitBytesPerMinute) + " MiB/min)", pooled.samples() >= 3
                        && pooled.bytesPerMinute() <= slopeLimitBytesPerMinute);
    }

    /** Whether every check passed. */
    public boolean passed() {
        return checks().values().stream().allMatch(Boolean::booleanValue);
    }

    /** The Markdown report. */
    public String markdown(String title, String svgFile) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n").append(configuration).append("\n\n");
        md.append("**").append(passed() ? "PASS" : "FAIL").append("**\n\n| check | result |\n|---|---|\n");
        checks().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> md.append("| ").append(e.getKey()).append(" | ")
                        .append(e.getValue() ? "pass" : "FAIL").append(" |\n"));
        md.append(String.format(Locale.ROOT, "%nRows %,d: %d lost, %d duplicated; open transactions at the end: %d.%n",
                expectedRows, lost, duplicated, openTransactions));
        md.append("\nArrow bytes allocated at the end, per task manager: ").append(arrowBytes).append("\n");
        md.append("\n| fault | at (min) | fault -> output resumed (ms) |\n|---|---:|---:|\n");
        for (SoakFault f : faults) {
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %s |%n", f.description(), f.minutes(),
                    f.recoveryMillis() < 0 ? "never" : Long.toString(f.recoveryMillis())));
        }
        md.append("\nHeap after full GC (`jcmd GC.run`, then `jstat -gc`), least-squares slope per process lifetime"
                + " and pooled over them (one slope, an intercept per lifetime):\n\n"
                + "| process | samples | span (min) | slope (MiB/min) |\n|---|---:|---:|---:|\n");
        List<HeapTrend.Slope> slopes = new ArrayList<>(HeapTrend.perSegment(heap));
        slopes.add(HeapTrend.pooled(heap));
        for (HeapTrend.Slope s : slopes) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.4f |%n", s.label(), s.samples(), s.minutes(),
                    s.bytesPerMinute() / (1024.0 * 1024.0)));
        }
        md.append("\n![heap after full GC](").append(svgFile).append(")\n");
        return md.toString();
    }

    /** Writes the four files into {@code dir}; returns the Markdown file. */
    public Path write(Path dir, String base, String title) throws IOException {
        Files.createDirectories(dir);
        StringBuilder heapCsv = new StringBuilder("minutes,process,pid,heap_after_gc_bytes\n");
        for (HeapSample s : heap) {
            heapCsv.append(String.format(Locale.ROOT, "%.3f,%s,%d,%d%n", s.minutes(), s.process(), s.pid(),
                    s.bytes()));
        }
        StringBuilder faultCsv = new StringBuilder("minutes,fault,recovery_ms\n");
        for (SoakFault f : faults) {
            faultCsv.append(String.format(Locale.ROOT, "%.3f,\"%s\",%d%n", f.minutes(), f.description(),
                    f.recoveryMillis()));
        }
        Files.writeString(dir.resolve(base + "-heap.csv"), heapCsv, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(base + "-faults.csv"), faultCsv, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(base + ".svg"), SoakPlot.svg(title, heap, faults), StandardCharsets.UTF_8);
        Path md = dir.resolve(base + ".md");
        Files.writeString(md, markdown(title, base + ".svg"), StandardCharsets.UTF_8);
        return md;
    }

    private static String mib(double bytes) {
        return String.format(Locale.ROOT, "%.2f", bytes / (1024.0 * 1024.0));
    }
}
