package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class CheckpointFiguresTest {
    /**
     * The steady window counts the checkpoints triggered from its start up to before its end, whenever they completed;
     * of those, the ones that did not complete are failed and stay out of the percentiles.
     */
    @Test
    void countsTheCheckpointsTriggeredInTheSteadyWindow() {
        long[] triggers = {1_000, 2_000, 3_000, 4_000, 5_000, 6_000};
        boolean[] completed = {true, true, true, false, true, true};
        long[] durations = {900, 40, 20, 0, 30, 500};
        long[] sizes = {10, 20, 30, 0, 40, 50};

        CheckpointFigures steady = CheckpointFigures.triggeredBetween(triggers, completed, durations, sizes, 2_000,
                6_000);

        assertThat(steady.completed()).as("2 s, 3 s and 5 s; not 1 s (before), 6 s (the window's end)").isEqualTo(3);
        assertThat(steady.failed()).as("4 s").isEqualTo(1);
        assertThat(steady.p50Ms()).as("nearest rank of 20, 30, 40").isEqualTo(30);
        assertThat(steady.maxMs()).isEqualTo(40);
        assertThat(steady.sizeMaxBytes()).isEqualTo(40);
        assertThat(CheckpointFigures.triggeredBetween(triggers, completed, durations, sizes, 6_500, 9_000))
                .isEqualTo(CheckpointFigures.NONE);
    }

    /** Stored under a prefix beside the whole job's, each read back as stored; a file without them reads as none. */
    @Test
    void storesTheSteadyFiguresBesideTheWholeJobs() {
        Properties p = new Properties();
        CheckpointFigures all = new CheckpointFigures(9, 1, 50, 200, 210, 1_000, 2_000);
        CheckpointFigures steady = new CheckpointFigures(4, 0, 30, 40, 41, 900, 1_100);
        all.store(p);
        steady.store(p, "steady");

        assertThat(p.getProperty("checkpointP50Ms")).isEqualTo("50");
        assertThat(p.getProperty("steadyCheckpointP50Ms")).isEqualTo("30");
        assertThat(CheckpointFigures.load(p)).isEqualTo(all);
        assertThat(CheckpointFigures.load(p, "steady")).isEqualTo(steady);
        Properties before = new Properties();
        all.store(before);
        assertThat(CheckpointFigures.load(before, "steady")).isEqualTo(CheckpointFigures.NONE);
    }
}
