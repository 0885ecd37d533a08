package io.columnarkafka.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapTrendTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void thePooledSlopeIgnoresTheDropOfARestartedProcess() {
        // Two lifetimes of one process, each flat at its own level: no trend, although a fit over both would see
        // one (the second starts 40 MiB lower).
        List<HeapSample> samples = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            samples.add(new HeapSample(i, "taskmanager-1", 1, 80 * MIB + (i % 2) * MIB));
            samples.add(new HeapSample(10 + i, "taskmanager-1", 2, 40 * MIB + (i % 2) * MIB));
        }
        HeapTrend.Slope pooled = HeapTrend.pooled(samples);
        assertThat(pooled.samples()).isEqualTo(20);
        assertThat(Math.abs(pooled.bytesPerMinute())).isLessThan(0.2 * MIB);
        assertThat(HeapTrend.perSegment(samples)).extracting(HeapTrend.Slope::label)
                .containsExactly("taskmanager-1 (pid 1)", "taskmanager-1 (pid 2)");
    }

    @Test
    void theSawtoothOfAJobMovingBetweenTaskManagersPassesThePerPhaseCheck() {
        List<SoakFault> faults = soakFaults();
        List<HeapSample> samples = sawtooth(faults, 0);
        // The overall fit reads the steps as growth (as on the committed 20-minute run, 0.54 MiB/min) ...
        assertThat(HeapTrend.pooled(samples).bytesPerMinute()).isGreaterThan(0.25 * MIB);
        // ... the fit per phase between faults does not.
        HeapTrend.Slope phases = HeapTrend.pooledOverPhases(samples, faults);
        assertThat(phases.samples()).isGreaterThanOrEqualTo(60);
        assertThat(phases.bytesPerMinute()).isLessThan(0.25 * MIB);
        assertThat(HeapTrend.perPhase(samples, faults)).hasSizeGreaterThanOrEqualTo(18);
        SoakReport report = report(samples, faults);
        assertThat(report.passed()).as(report.markdown("t", "t.svg")).isTrue();
    }

    @Test
    void aLeakUnderTheSameSawtoothFailsThePerPhaseCheck() {
        List<SoakFault> faults = soakFaults();
        List<HeapSample> samples = sawtooth(faults, 1.0 * MIB);
        assertThat(HeapTrend.pooledOverPhases(samples, faults).bytesPerMinute()).isGreaterThan(0.5 * MIB);
        SoakReport report = report(samples, faults);
        assertThat(report.passed()).isFalse();
        assertThat(report.checks()).containsEntry(SoakReport.heapCheckName(0.25 * MIB), false)
                .containsEntry("0 lost read_committed", true);
    }

    @Test
    void aSmallLeakOnFlatPhasesFailsAndTheSameFlatPhasesPass() {
        List<SoakFault> faults = soakFaults();
        List<HeapSample> flat = new ArrayList<>();
        List<HeapSample> leaking = new ArrayList<>();
        Random noise = new Random(7);
        for (double t = 0; t < 20; t += 1.0 / 3) {
            long jitter = (long) (noise.nextGaussian() * 0.1 * MIB);
            flat.add(new HeapSample(t, "taskmanager-1", 1, 30 * MIB + jitter));
            leaking.add(new HeapSample(t, "taskmanager-1", 1, 30 * MIB + jitter + (long) (0.4 * MIB * t)));
        }
        assertThat(SoakReport.heapTrendPasses(flat, faults, 0.25 * MIB)).isTrue();
        assertThat(SoakReport.heapTrendPasses(leaking, faults, 0.25 * MIB)).isFalse();
    }

    @Test
    void aPhaseLeavesOutTheSamplesBeforeItSettledAndAfterAFaultThatNeverRecovered() {
        List<SoakFault> faults = List.of(new SoakFault(2, "kill -9 taskmanager-2", 6_000),
                new SoakFault(4, "broker stopped 20 s", -1));
        List<HeapSample> samples = new ArrayList<>();
        for (double t = 0; t < 6; t += 0.25) {
            samples.add(new HeapSample(t, "taskmanager-1", 1, 30 * MIB));
        }
        Map<String, List<HeapSample>> phases = HeapTrend.phases(samples, faults);
        assertThat(phases).containsOnlyKeys("taskmanager-1 (pid 1), 0.50-2.00 min",
                "taskmanager-1 (pid 1), 2.60-4.00 min");
        assertThat(phases.get("taskmanager-1 (pid 1), 2.60-4.00 min")).extracting(HeapSample::minutes)
                .containsExactly(2.75, 3.0, 3.25, 3.5, 3.75);
        // Too few samples per phase to fit, or too few phases: the check cannot pass.
        assertThat(SoakReport.heapTrendPasses(samples.subList(0, 4), faults, 0.25 * MIB)).isFalse();
        assertThat(HeapTrend.pooledOverPhases(samples, faults)).extracting(HeapTrend.Slope::samples,
                HeapTrend.Slope::segments).containsExactly(11, 2);
        assertThat(SoakReport.heapTrendPasses(samples, faults, 0.25 * MIB)).as("2 flat phases are too few").isFalse();
    }

    @Test
    void theWrittenCsvFilesReadBackAsTheSamplesAndFaults(@TempDir Path dir) throws Exception {
        List<SoakFault> faults = soakFaults();
        List<HeapSample> samples = sawtooth(faults, 0).subList(0, 20);
        report(samples, faults).write(dir, "soak", "t");
        assertThat(SoakReport.readFaults(dir.resolve("soak-faults.csv"))).isEqualTo(faults);
        assertThat(SoakReport.readHeap(dir.resolve("soak-heap.csv")))
                .usingRecursiveFieldByFieldElementComparatorIgnoringFields("minutes").isEqualTo(samples);
        assertThat(Files.readString(dir.resolve("soak.md"))).contains("pooled over lifetimes", "pooled over phases",
                "Sensitivity");
    }

    /** Faults as bin/soak injects them: every 2 minutes, a task manager kill (alternating 2, 1) then a broker stop. */
    private static List<SoakFault> soakFaults() {
        List<SoakFault> faults = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            faults.add(i % 2 == 0
                    ? new SoakFault(2 + 2 * i, "kill -9 taskmanager-" + (i % 4 == 0 ? 2 : 1)
                            + ", checkpoint in flight", 5_000)
                    : new SoakFault(2 + 2 * i, "broker stopped 20 s", 30_000));
        }
        return faults;
    }

    /**
     * Heap after GC of two task managers sampled every 20 s through {@code faults}, as the 20-minute soak saw it:
     * half the job each at 33 MiB; a killed one restarts idle at 25 MiB under a new pid, the survivor takes the whole
     * job and steps up to 38 MiB, settling towards 31 MiB; 0.8 MiB of noise; plus {@code leakPerMinute} on every
     * live process from its start.
     */
    private static List<HeapSample> sawtooth(List<SoakFault> faults, double leakPerMinute) {
        String[] names = {"taskmanager-1", "taskmanager-2"};
        long[] pids = {1, 2};
        double[] started = {0, 0};
        double[] base = {33, 33};
        double[] jobArrived = {-10, -10};
        long nextPid = 3;
        int nextFault = 0;
        Random noise = new Random(42);
        List<HeapSample> samples = new ArrayList<>();
        for (double t = 0; t < 20; t += 1.0 / 3) {
            while (nextFault < faults.size() && faults.get(nextFault).minutes() <= t) {
                String fault = faults.get(nextFault++).description();
                for (int i = 0; i < 2; i++) {
                    if (fault.contains(names[i])) {
                        pids[i] = nextPid++;
                        started[i] = t;
                        base[i] = 25;
                        base[1 - i] = 31;
                        jobArrived[1 - i] = t;
                    }
                }
            }
            for (int i = 0; i < 2; i++) {
                double settling = 7 * Math.exp(-(t - jobArrived[i]) / 0.4);
                double mib = base[i] + settling + noise.nextGaussian() * 0.8;
                samples.add(new HeapSample(t + i * 0.02, names[i], pids[i],
                        (long) (mib * MIB + leakPerMinute * (t - started[i]))));
            }
        }
        return samples;
    }

    private static SoakReport report(List<HeapSample> samples, List<SoakFault> faults) {
        return new SoakReport("test", 10, 0, 0, 0, Map.of("taskmanager-1", 0L, "taskmanager-2", 0L), 2, samples,
                faults, 0.25 * MIB);
    }

    @Test
    void aSteadyGrowthInEveryLifetimeShowsAsTheSlope() {
        List<HeapSample> samples = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            samples.add(new HeapSample(i, "taskmanager-1", 1, 50 * MIB + i * MIB));
            samples.add(new HeapSample(6 + i, "taskmanager-1", 2, 30 * MIB + i * MIB));
            samples.add(new HeapSample(i, "taskmanager-2", 3, 60 * MIB + i * MIB));
        }
        assertThat(HeapTrend.pooled(samples).bytesPerMinute()).isCloseTo(MIB, within(1.0));
        SoakReport report = new SoakReport("test", 10, 0, 0, 0, Map.of("taskmanager-1", 0L), 1, samples,
                List.of(new SoakFault(6, "kill -9 taskmanager-1", 5000)), 0.25 * MIB);
        assertThat(report.passed()).as("1 MiB/min is a growth trend").isFalse();
        assertThat(report.checks()).containsValue(false).hasSize(6);
    }

    @Test
    void theUsedHeapIsTheSumOfTheUsedColumnsOfJstat() {
        String jstat = " S0C    S1C    S0U    S1U      EC       EU        OC         OU       MC     MU    CCSC   CCSU"
                + "   YGC     YGCT    FGC    FGCT     CGC    CGCT     GCT\n"
                + "  0.0 1024.0    0.0   10.5  2048.0    100.0   4096.0    2000.0  512.0  400.0   64.0   50.0"
                + "      3    0.010     1    0.020     -        -    0.030\n";
        assertThat(HeapAfterGc.usedBytes(jstat)).isEqualTo(Math.round((10.5 + 100.0 + 2000.0) * 1024));
    }

    @Test
    void theHeapOfARunningJvmIsMeasured() {
        long bytes = HeapAfterGc.measure(ProcessHandle.current().pid());
        assertThat(bytes).isGreaterThan(MIB).isLessThan(Runtime.getRuntime().maxMemory());
    }

    @Test
    void thePlotHasALinePerLifetimeAndAMarkPerFault() {
        List<HeapSample> samples = List.of(new HeapSample(0, "taskmanager-1", 1, 10 * MIB),
                new HeapSample(1, "taskmanager-1", 1, 11 * MIB), new HeapSample(2, "taskmanager-1", 2, 9 * MIB));
        String svg = SoakPlot.svg("t <1>", samples, List.of(new SoakFault(1.5, "broker stopped 20 s", 100)));
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n").contains("t &lt;1&gt;")
                .contains("taskmanager-1 (pid 1)", "taskmanager-1 (pid 2)", "broker stopped 20 s");
        assertThat(svg.split("<polyline", -1)).hasSize(3);
    }
}
