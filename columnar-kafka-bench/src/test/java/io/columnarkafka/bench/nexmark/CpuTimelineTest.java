package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The steady CPU cores of a fixed-rate cell: CPU time between two instants over their wall time, each CPU figure
 * interpolated between the samples around it; NaN for a span outside the samples or an empty one.
 */
class CpuTimelineTest {
    /** Samples every 100 ms: 1 core for the first second, then 2 cores. */
    private static final double[] MILLIS = {0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200};
    private static final double[] CPU_NANOS = {0, 100e6, 200e6, 300e6, 400e6, 500e6, 600e6, 700e6, 800e6, 900e6,
        1000e6, 1200e6, 1400e6};

    @Test
    void coresAreCpuTimeOverWallTimeBetweenTheInstants() {
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, 0, 1000)).isEqualTo(1.0);
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, 1000, 1200)).isEqualTo(2.0);
        // 950..1150 ms: 50 ms at 1 core, 150 ms at 2 cores = 350 ms of CPU in 200 ms.
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, 950, 1150)).isCloseTo(1.75, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aSpanOutsideTheSamplesHasNoFigure() {
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, -10, 500)).isNaN();
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, 500, 1300)).isNaN();
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, 500, 500)).isNaN();
        assertThat(CpuTimeline.cores(MILLIS, CPU_NANOS, Double.NaN, 500)).isNaN();
    }
}
