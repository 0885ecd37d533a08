package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.bench.nexmark.KillTrigger.Action;
import io.columnarkafka.bench.nexmark.KillTrigger.Decision;
import io.columnarkafka.bench.nexmark.KillTrigger.Observation;
import org.junit.jupiter.api.Test;

/**
 * The recovery cell's kill decision: only after the target share is read, only at a checkpoint completed after
 * that, only once its offsets had time to be committed, and only before the min-pause lets the next checkpoint
 * start; a missed window waits for the next checkpoint; the job ending or the sources finishing first fails with
 * the reason. Settle 200 ms, min-pause 500 ms, margin 50 ms: the window is 200 to 450 ms after a completion.
 */
class KillTriggerTest {
    private static final long TARGET = 150_000;

    private final KillTrigger trigger = new KillTrigger(TARGET, 300_000, 200, 500, 50);

    @Test
    void firesAtTheFirstCheckpointCompletedAfterTheTargetOnceItsOffsetsSettled() {
        // Checkpoint 5 completed at 1,000, before the target was read: not the one to follow.
        assertThat(trigger.decide(seen(1_100, 140_000, 5, 1_000, 0)).action()).isEqualTo(Action.WAIT);
        assertThat(trigger.decide(seen(1_300, 150_000, 5, 1_000, 0)).action()).isEqualTo(Action.WAIT);
        assertThat(trigger.decide(seen(1_400, 155_000, 5, 1_000, 0)).action()).isEqualTo(Action.WAIT);
        // Checkpoint 6 in flight, then completed at 2,000.
        assertThat(trigger.decide(seen(1_900, 160_000, 5, 1_000, 1)).action()).isEqualTo(Action.WAIT);
        assertThat(trigger.decide(seen(2_100, 165_000, 6, 2_000, 0)).action()).as("settling").isEqualTo(Action.WAIT);
        Decision fire = trigger.decide(seen(2_250, 168_000, 6, 2_000, 0));
        assertThat(fire.action()).isEqualTo(Action.FIRE);
        assertThat(fire.checkpoint()).isEqualTo(6);
    }

    @Test
    void checkpointsThatTakeTheWholeIntervalStillLeaveTheMinPauseWindow() {
        // The columnar q5 case: every look sees the next checkpoint already in flight; the target is read by
        // the third look, the fourth sees checkpoint 4 completed but too late.
        for (int checkpoint = 1; checkpoint <= 4; checkpoint++) {
            long completedAt = checkpoint * 1_100L;
            assertThat(trigger.decide(seen(completedAt + 600, 100_000 + checkpoint * 20_000L, checkpoint,
                    completedAt, 1)).action()).isEqualTo(Action.WAIT);
        }
        // Checkpoint 5 completed at 5,500; the next may start only at 6,000.
        assertThat(trigger.decide(seen(5_600, 185_000, 5, 5_500, 0)).action()).isEqualTo(Action.WAIT);
        Observation window = seen(5_720, 186_000, 5, 5_500, 0);
        Decision fire = trigger.decide(window);
        assertThat(fire.action()).isEqualTo(Action.FIRE);
        assertThat(fire.checkpoint()).isEqualTo(5);
        assertThat(trigger.stillInWindow(5_900, window)).isTrue();
        assertThat(trigger.stillInWindow(5_950, window)).isFalse();
    }

    @Test
    void aWindowSeenTooLateWaitsForTheNextCheckpoint() {
        trigger.decide(seen(1_000, 150_000, 3, 900, 0));
        // Checkpoint 4 completed at 2,000, first seen at 2,460: the next checkpoint may start from 2,500.
        assertThat(trigger.decide(seen(2_460, 170_000, 4, 2_000, 0)).action()).isEqualTo(Action.WAIT);
        assertThat(trigger.decide(seen(2_600, 172_000, 4, 2_000, 1)).action()).isEqualTo(Action.WAIT);
        // The kill's last look came too late as well for checkpoint 5.
        Observation five = seen(3_300, 180_000, 5, 3_050, 0);
        assertThat(trigger.decide(five).action()).isEqualTo(Action.FIRE);
        assertThat(trigger.stillInWindow(3_500, five)).isFalse();
        Decision six = trigger.decide(seen(4_400, 190_000, 6, 4_100, 0));
        assertThat(six.action()).isEqualTo(Action.FIRE);
        assertThat(six.checkpoint()).isEqualTo(6);
        Decision ended = trigger.decide(new Observation(9_000, 190_000, true, "FINISHED", 9, 8_000, 0));
        assertThat(ended.reason()).contains("2 window(s) missed").contains("after checkpoint 3");
    }

    @Test
    void theJobEndingBeforeTheTargetFailsSayingTheInputIsTooSmall() {
        trigger.decide(seen(1_000, 90_000, 2, 500, 0));
        Decision decision = trigger.decide(new Observation(2_000, 0, true, "FINISHED", 3, 1_500, 0));
        assertThat(decision.action()).isEqualTo(Action.FAIL);
        assertThat(decision.reason()).startsWith("the job ended (FINISHED)").contains("before its sources had read")
                .contains("at most 90,000 seen").contains("use more --events");
    }

    @Test
    void theSourcesFinishingAfterTheTargetFailsBeforeAnyKill() {
        trigger.decide(seen(1_000, 150_000, 2, 500, 0));
        trigger.decide(seen(1_100, 299_000, 2, 500, 1));
        // The readers closed and their gauges with them: the position files read less than before.
        Decision decision = trigger.decide(seen(1_700, 0, 3, 1_400, 0));
        assertThat(decision.action()).isEqualTo(Action.FAIL);
        assertThat(decision.reason()).startsWith("the sources finished").contains("at most 299,000 seen")
                .contains("after checkpoint 2");
    }

    @Test
    void noKillWithACheckpointInFlightOrBeforeTheTarget() {
        assertThat(trigger.decide(seen(1_300, 149_999, 2, 1_000, 0)).action()).isEqualTo(Action.WAIT);
        trigger.decide(seen(1_400, 150_000, 2, 1_000, 0));
        assertThat(trigger.decide(seen(2_300, 160_000, 3, 2_000, 1)).action()).isEqualTo(Action.WAIT);
    }

    @Test
    void aMinPauseWithNoRoomForTheKillIsRefused() {
        assertThatThrownBy(() -> new KillTrigger(TARGET, 300_000, 200, 250, 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no window");
    }

    private static Observation seen(long now, long position, long completed, long completedEnd, int inProgress) {
        return new Observation(now, position, false, "RUNNING", completed, completedEnd, inProgress);
    }
}
