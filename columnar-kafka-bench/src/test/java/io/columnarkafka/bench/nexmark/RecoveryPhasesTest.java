package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The recovery time's phases from a hand-made timeline: each phase from the end of the one before, the sum the kill
 * to caught up, a negative first read kept, the detection kind read from the job manager's failure text, and the
 * result file's form read back.
 */
class RecoveryPhasesTest {
    private static final long KILL = 1_700_000_000_000L;

    /**
     * Kill at 0; failure recorded at 850 ms; first attempt created at 960; last deploying 1,400; last initializing
     * 1,650; last running 4,900; first read 5,300; caught up 7,450. Phases: 850, 110, 440, 250, 3,250, 400, 2,150;
     * sum 7,450.
     */
    @Test
    void cutsTheKillToCaughtUpIntoConsecutivePhases() {
        RecoveryPhases phases = RecoveryPhases.of(new RecoveryPhases.Timeline(KILL, KILL + 850,
                "org.apache.flink.runtime.jobmaster.JobMasterException: TaskManager with id tm-1 is no longer"
                        + " reachable.", KILL + 960, KILL + 1_400, KILL + 1_650, KILL + 4_900, KILL + 5_300,
                KILL + 7_450));

        assertThat(phases).isEqualTo(
                new RecoveryPhases("connection-loss", 850, 110, 440, 250, 3_250, 400, 2_150));
        assertThat(phases.total()).isEqualTo(7_450);
    }

    /**
     * A multi-task job whose source task runs and reads (at 4,100) before the sink's task runs (4,600): firstRead
     * is 4,100 − 4,600 = −500, and catchUp 6,000 − 4,100 = 1,900, so the sum is still the kill to caught up.
     */
    @Test
    void keepsANegativeFirstReadAndStillAddsUpToTheRecoveryTime() {
        RecoveryPhases phases = RecoveryPhases.of(new RecoveryPhases.Timeline(KILL, KILL + 5_200,
                "java.util.concurrent.TimeoutException: Heartbeat of TaskManager with id tm-1 timed out.",
                KILL + 5_300, KILL + 5_500, KILL + 5_800, KILL + 9_800, KILL + 9_300, KILL + 11_200));

        assertThat(phases.detection()).isEqualTo("heartbeat-timeout");
        assertThat(phases.firstRead()).isEqualTo(-500);
        assertThat(phases.catchUp()).isEqualTo(1_900);
        assertThat(phases.open()).isEqualTo(4_000);
        assertThat(phases.total()).isEqualTo(11_200);
    }

    @Test
    void namesAnUnknownFailureOther() {
        assertThat(RecoveryPhases.detection("java.lang.Exception: Job was cancelled")).isEqualTo("other");
        assertThat(RecoveryPhases.detection("Heartbeat of TaskManager with id tm-1 is lost")).isEqualTo("other");
    }

    @Test
    void readsItsResultFileFormBack() {
        RecoveryPhases phases = new RecoveryPhases("connection-loss", 850, 110, 440, 250, 3_250, -400, 2_150);

        assertThat(phases.toString()).isEqualTo("detection=connection-loss detect=850 restartDelay=110 schedule=440"
                + " deploy=250 open=3250 firstRead=-400 catchUp=2150");
        assertThat(RecoveryPhases.parse(phases.toString())).isEqualTo(phases);
        assertThat(RecoveryPhases.parse("unavailable: the job manager recorded no failure after the kill")).isNull();
        assertThat(RecoveryPhases.parse(null)).isNull();
    }
}
