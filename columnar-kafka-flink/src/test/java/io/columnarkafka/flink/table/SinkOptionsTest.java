package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.sink.SendWindow;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/** The sink's {@code columnar.} options as {@link ColumnarOptions#read} validates them. */
class SinkOptionsTest {
    @Test
    void theSendWindowIsOnByDefaultAndZeroTurnsItOff() {
        assertThat(ColumnarOptions.read("kafka-columnar", Map.of()).maxQueueDelayNanos())
                .isEqualTo(SendWindow.DEFAULT_MAX_QUEUE_DELAY.toNanos()).isEqualTo(10_000_000L);
        assertThat(ColumnarOptions.read("kafka-columnar", Map.of("columnar.sink.max-queue-delay", "20 ms"))
                .maxQueueDelayNanos()).isEqualTo(20_000_000L);
        assertThat(ColumnarOptions.read("kafka-columnar", Map.of("columnar.sink.max-queue-delay", "0"))
                .maxQueueDelayNanos()).isZero();
    }

    @Test
    void aNegativeOrUnreadableDelayIsRejectedByName() {
        assertThatThrownBy(() -> ColumnarOptions.read("kafka-columnar",
                Map.of("columnar.sink.max-queue-delay", "-1 ms")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Invalid columnar option for 'kafka-columnar'");
        assertThatThrownBy(() -> ColumnarOptions.read("upsert-kafka-columnar",
                Map.of("columnar.sink.max-queue-delay", "soon")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Invalid columnar option for 'upsert-kafka-columnar'");
        assertThatThrownBy(() -> ColumnarOptions.read("kafka-columnar", Map.of("columnar.sink.queue-delay", "5 ms")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Unsupported option 'columnar.sink.queue-delay'");
    }
}
