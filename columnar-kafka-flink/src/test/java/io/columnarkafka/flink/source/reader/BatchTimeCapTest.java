package io.columnarkafka.flink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The cap's arithmetic, on step times given in nanoseconds (no clock): the rows of the next batch are the target
 * over the moving average of the time per record, between {@link BatchTimeCap#MIN_ROWS} and the row cap.
 */
class BatchTimeCapTest {
    private static final long MS = 1_000_000;

    @Test
    void withoutATargetOrBeforeAnyStepTheRowCap() {
        BatchTimeCap none = new BatchTimeCap(500, 0);
        none.measured(500, 1_000 * MS);
        assertThat(none.rows()).isEqualTo(500);
        assertThat(new BatchTimeCap(500, 5 * MS).rows()).isEqualTo(500);
    }

    @Test
    void theTargetOverTheTimePerRecord() {
        BatchTimeCap cap = new BatchTimeCap(500, 5 * MS);
        cap.measured(500, 10 * MS); // 20 us a record: 5 ms holds 250
        assertThat(cap.rows()).isEqualTo(250);
        cap.measured(100, 4 * MS); // 40 us; the average moves a quarter of the way: 25 us, 200 records
        assertThat(cap.rows()).isEqualTo(200);
    }

    @Test
    void neverFewerThanTheFloorNorMoreThanTheRowCap() {
        BatchTimeCap slow = new BatchTimeCap(500, 5 * MS);
        slow.measured(10, 10 * MS); // 1 ms a record: 5 would fit
        assertThat(slow.rows()).isEqualTo(BatchTimeCap.MIN_ROWS);
        BatchTimeCap fast = new BatchTimeCap(500, 5 * MS);
        fast.measured(500, MS);
        assertThat(fast.rows()).isEqualTo(500);
        fast.measured(500, 0);
        assertThat(fast.rows()).isEqualTo(500);
        BatchTimeCap smallRowCap = new BatchTimeCap(8, 5 * MS);
        smallRowCap.measured(8, 80 * MS);
        assertThat(smallRowCap.rows()).as("a row cap below the floor still holds").isEqualTo(8);
    }

    /**
     * Steps that cost 1 ms whatever the batch plus 20 us a record: a whole step lasts the 5 ms target at 200
     * records, where the cap settles from the row cap's 500 (the per-step cost is in the average).
     */
    @Test
    void settlesWhereAWholeStepLastsTheTarget() {
        BatchTimeCap cap = new BatchTimeCap(500, 5 * MS);
        long stepNanos = 0;
        for (int step = 0; step < 60; step++) {
            int rows = cap.rows();
            stepNanos = MS + rows * 20_000L;
            cap.measured(rows, stepNanos);
        }
        assertThat(cap.rows()).isBetween(198, 202);
        assertThat(stepNanos).isBetween(4_950_000L, 5_050_000L);
    }

    @Test
    void aPerStepCostAboveTheTargetGivesTheFloor() {
        BatchTimeCap cap = new BatchTimeCap(500, 5 * MS);
        for (int step = 0; step < 60; step++) {
            int rows = cap.rows();
            cap.measured(rows, 6 * MS + rows * 1_000L);
        }
        assertThat(cap.rows()).isEqualTo(BatchTimeCap.MIN_ROWS);
    }

    @Test
    void oneSlowStepMovesTheCapForAFewStepsOnly() {
        BatchTimeCap cap = new BatchTimeCap(500, 5 * MS);
        cap.measured(250, 5 * MS); // 20 us a record
        assertThat(cap.rows()).isEqualTo(250);
        cap.measured(250, 50 * MS); // a 50 ms pause: 200 us a record this once
        int afterPause = cap.rows();
        assertThat(afterPause).isBetween(BatchTimeCap.MIN_ROWS, 100);
        int steps = 0;
        while (cap.rows() < 240 && steps < 100) {
            int rows = cap.rows();
            cap.measured(rows, rows * 20_000L);
            steps++;
        }
        // The average is 20 + 45 * 0.75^k us after k steps at 20 us; 5 ms holds 240 records from k = 14.
        assertThat(steps).as("steps back to within 4 %% of 250 records").isEqualTo(14);
    }

    @Test
    void rejectsANonPositiveRowCapOrANegativeTarget() {
        assertThatThrownBy(() -> new BatchTimeCap(0, MS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchTimeCap(10, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
