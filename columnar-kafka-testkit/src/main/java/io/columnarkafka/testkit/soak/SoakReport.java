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
 * @param slopeLimitBytesPerMinute the largest heap slope pooled over phases between faults
 *     ({@link HeapTrend#pooledOverPhases}) that counts as no growth trend
 */
public record SoakReport(String configuration, long expectedRows, long lost, long duplicated, int openTransactions,
                         Map<String, Long> arrowBytes, int taskManagers, List<HeapSample> heap,
                         List<SoakFault> faults, double slopeLimitBytesPerMinute) {

    /** The fewest samples the pooled per-phase fit needs before a soak can pass its heap check. */
    static final int MIN_HEAP_SAMPLES = 10;

    /** The fewest phases (of at least 3 samples) it needs: one phase alone is one stretch of one workload. */
    static final int MIN_HEAP_PHASES = 4;

    /** The checks of issue #13's soak, each with whether it passed. */
    public Map<String, Boolean> checks() {
        return Map.of(
                "0 lost read_committed", lost == 0,
                "0 duplicated read_committed", duplicated == 0,
                "no transaction left open", openTransactions == 0,
                "output resumed after every fault", !faults.isEmpty()
                        && faults.stream().allMatch(f -> f.recoveryMillis() >= 0),
                "Arrow memory 0 on every task manager", arrowBytes.size() == taskManagers
                        && arrowBytes.values().stream().allMatch(b -> b == 0),
                heapCheckName(slopeLimitBytesPerMinute), heapTrendPasses(heap, faults, slopeLimitBytesPerMinute));
    }

    /** The name of the heap check, with its limit. */
    static String heapCheckName(double slopeLimitBytesPerMinute) {
        return "no heap growth trend between faults (slope pooled over phases <= "
                + mib(slopeLimitBytesPerMinute) + " MiB/min)";
    }

    /**
     * Whether the heap shows no growth trend: the slope pooled over the phases between faults
     * ({@link HeapTrend#pooledOverPhases}) is at most the limit, fitted on at least {@link #MIN_HEAP_SAMPLES} samples
     * from at least {@link #MIN_HEAP_PHASES} phases.
     */
    public static boolean heapTrendPasses(List<HeapSample> heap, List<SoakFault> faults,
                                          double slopeLimitBytesPerMinute) {
        HeapTrend.Slope pooled = HeapTrend.pooledOverPhases(heap, faults);
        return pooled.samples() >= MIN_HEAP_SAMPLES && pooled.segments() >= MIN_HEAP_PHASES
                && pooled.bytesPerMinute() <= slopeLimitBytesPerMinute;
    }

    /**
     * The heap section of the report: the slope per lifetime and pooled over lifetimes (the overall figure, for
     * reference), the slope per phase between faults and pooled over phases (the check), and the smallest steady
     * leak the check would have flagged in these samples.
     */
    public static String heapAnalysis(List<HeapSample> heap, List<SoakFault> faults,
                                      double slopeLimitBytesPerMinute) {
        StringBuilder md = new StringBuilder();
        md.append("Heap after full GC (`jcmd GC.run`, then `jstat -gc`), least-squares slopes.\n\n"
                + "Overall (for reference, not the check): a slope per process lifetime and pooled over them (one slope,"
                + " an intercept per lifetime). A fault that moves the job onto a surviving task manager steps its heap"
                + " up, which this fit reads as growth.\n\n");
        List<HeapTrend.Slope> lifetimes = new ArrayList<>(HeapTrend.perSegment(heap));
        lifetimes.add(HeapTrend.pooled(heap));
        slopeTable(md, "process", lifetimes);
        HeapTrend.Slope pooled = HeapTrend.pooledOverPhases(heap, faults);
        md.append(String.format(Locale.ROOT, "%nThe check: each lifetime split at every fault; a phase counts the samples"
                + " from %.1f min after output resumed (after the start, for the first) until the next fault, so steps"
                + " at faults and the settling after a job moves in are not read as growth. One slope pooled over the"
                + " phases of at least %d samples, an intercept per phase; it must be at most %s MiB/min over at least"
                + " %d samples from at least %d phases (here %d samples from %d phases): **%s**.%n%n",
                HeapTrend.SETTLE_MINUTES, HeapTrend.MIN_SAMPLES, mib(slopeLimitBytesPerMinute), MIN_HEAP_SAMPLES,
                MIN_HEAP_PHASES, pooled.samples(), pooled.segments(),
                heapTrendPasses(heap, faults, slopeLimitBytesPerMinute) ? "pass" : "FAIL"));
        List<HeapTrend.Slope> phases = new ArrayList<>(HeapTrend.perPhase(heap, faults));
        phases.add(pooled);
        slopeTable(md, "phase", phases);
        // An added steady leak of L bytes/min raises every phase's slope, and so the pooled one, by exactly L.
        md.append(String.format(Locale.ROOT, "%nSensitivity: a steady leak adds its rate to the pooled slope, so in"
                + " these samples the check flags any leak above %s MiB/min (the limit minus the pooled slope).%n",
                mib(Math.max(0, slopeLimitBytesPerMinute - pooled.bytesPerMinute()))));
        return md.toString();
    }

    private static void slopeTable(StringBuilder md, String what, List<HeapTrend.Slope> slopes) {
        md.append("| ").append(what).append(" | samples | span (min) | slope (MiB/min) | standard error (MiB/min) |\n"
                + "|---|---:|---:|---:|---:|\n");
        for (HeapTrend.Slope s : slopes) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.4f | %.4f |%n", s.label(), s.samples(),
                    s.minutes(), s.bytesPerMinute() / (1024.0 * 1024.0), s.standardError() / (1024.0 * 1024.0)));
        }
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
        md.append("\n").append(heapAnalysis(heap, faults, slopeLimitBytesPerMinute));
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

    /** The samples of a {@code <base>-heap.csv} that {@link #write} wrote. */
    public static List<HeapSample> readHeap(Path csv) throws IOException {
        List<HeapSample> samples = new ArrayList<>();
        for (String line : dataLines(csv)) {
            String[] f = line.split(",");
            samples.add(new HeapSample(Double.parseDouble(f[0]), f[1], Long.parseLong(f[2]), Long.parseLong(f[3])));
        }
        return samples;
    }

    /** The faults of a {@code <base>-faults.csv} that {@link #write} wrote (the description is quoted). */
    public static List<SoakFault> readFaults(Path csv) throws IOException {
        List<SoakFault> faults = new ArrayList<>();
        for (String line : dataLines(csv)) {
            int first = line.indexOf(',');
            int last = line.lastIndexOf(',');
            String description = line.substring(first + 1, last);
            faults.add(new SoakFault(Double.parseDouble(line.substring(0, first)),
                    description.substring(1, description.length() - 1), Long.parseLong(line.substring(last + 1))));
        }
        return faults;
    }

    private static List<String> dataLines(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
    }

    private static String mib(double bytes) {
        return String.format(Locale.ROOT, "%.2f", bytes / (1024.0 * 1024.0));
    }
}
