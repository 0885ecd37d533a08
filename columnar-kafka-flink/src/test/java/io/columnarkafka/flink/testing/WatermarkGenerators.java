package io.columnarkafka.flink.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.clock.RelativeClock;

/**
 * What a test hands a watermark strategy's generators in place of Flink's source operator: the context a split's
 * generator is made with, and an output that keeps what it emits.
 */
public final class WatermarkGenerators {
    private WatermarkGenerators() {}

    /** A generator's context: unregistered metrics, and {@code clock} for its input activity (idleness). */
    public static WatermarkGeneratorSupplier.Context context(RelativeClock clock) {
        return new WatermarkGeneratorSupplier.Context() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public RelativeClock getInputActivityClock() {
                return clock;
            }
        };
    }

    /** The watermarks a generator emitted, in order, and whether it last marked its output idle. */
    public static final class Emitted implements WatermarkOutput {
        private final List<Long> watermarks = new ArrayList<>();
        private boolean idle;

        /** The watermark emitted last; fails when none was. */
        public long last() {
            return watermarks.get(watermarks.size() - 1);
        }

        /** The largest watermark emitted, {@link Long#MIN_VALUE} when none was. */
        public long largest() {
            return watermarks.stream().mapToLong(Long::longValue).max().orElse(Long.MIN_VALUE);
        }

        public boolean idle() {
            return idle;
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            watermarks.add(watermark.getTimestamp());
            idle = false;
        }

        @Override
        public void markIdle() {
            idle = true;
        }

        @Override
        public void markActive() {
            idle = false;
        }
    }
}
