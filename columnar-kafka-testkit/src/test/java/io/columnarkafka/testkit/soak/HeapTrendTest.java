package io.columnarkafka.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
