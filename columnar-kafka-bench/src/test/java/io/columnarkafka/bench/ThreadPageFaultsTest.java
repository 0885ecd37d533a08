package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadPageFaultsTest {
    @Test
    void minorFaultsAreTheTenthFieldCountedPastTheCommandName() {
        String stat = "4242 (C2 Compiler) Thread) S 1 4242 4242 0 -1 4194368 77 0 3 0 12 5 0 0 20 0 40 0 100 0 0";
        assertThat(ThreadPageFaults.minor(stat)).isEqualTo(77);
    }

    @Test
    void theCallingThreadsFaultsGrowWhenItTouchesNewMemory() {
        long before = ThreadPageFaults.minor();
        java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(8 << 20);
        for (int i = 0; i < direct.capacity(); i += 4096) {
            direct.put(i, (byte) 1);
        }
        assertThat(ThreadPageFaults.minor() - before).isGreaterThan(100);
    }

    @Test
    void aHarnessWithoutAPreTouchedHeapRefusesToMeasure() {
        assertThatThrownBy(() -> ThreadPageFaults.requirePreTouchedHeap(List.of("-Xms1g", "-Xmx1g")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("-XX:+AlwaysPreTouch");
        ThreadPageFaults.requirePreTouchedHeap(List.of("-Xms1g", "-XX:+AlwaysPreTouch", "-Xmx1g"));
    }
}
