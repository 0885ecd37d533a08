package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.bench.JvmWarmUp;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client settings reach both variants' tables as Kafka properties; unset ones leave Kafka's defaults. */
class ClientSettingsTest {
    @Test
    void producerSettingsBecomeTheResultTablesProperties() {
        ClientSettings streamFusion = new ClientSettings(8192, 524288, 20, -1, 0, -1);
        for (String connector : new String[] {"kafka", "kafka-columnar"}) {
            assertThat(NexmarkSql.sinkOptions(connector, false, "b:9092", "out", "tx", streamFusion, Map.of()))
                    .contains("'properties.batch.size' = '524288'", "'properties.linger.ms' = '20'");
            assertThat(NexmarkSql.sourceTable(connector, "b:9092", "in", "g", false, streamFusion))
                    .contains("'properties.max.poll.records' = '8192'");
        }
        assertThat(NexmarkSql.sinkOptions("kafka", false, "b:9092", "out", "tx", new ClientSettings(0, -1, 0, -1, 0, -1), Map.of()))
                .contains("'properties.linger.ms' = '0'").doesNotContain("batch.size");
        assertThat(NexmarkSql.sinkOptions("kafka", true, "b:9092", "out", "tx", ClientSettings.DEFAULTS, Map.of()))
                .doesNotContain("batch.size", "linger.ms");
        assertThat(ClientSettings.DEFAULTS.describe()).isEmpty();
    }

    @Test
    void theProducerBufferReachesBothVariantsResultTables() {
        ClientSettings small = new ClientSettings(0, -1, -1, 4_194_304, 0, -1);
        for (String connector : new String[] {"kafka", "kafka-columnar", "upsert-kafka", "upsert-kafka-columnar"}) {
            assertThat(NexmarkSql.sinkOptions(connector, connector.startsWith("upsert"), "b:9092", "out", "tx", small, Map.of()))
                    .contains("'properties.buffer.memory' = '4194304'");
        }
        assertThat(NexmarkSql.sinkOptions("kafka", false, "b:9092", "out", "tx", ClientSettings.DEFAULTS, Map.of()))
                .doesNotContain("buffer.memory");
        assertThat(small.describe()).contains("`properties.buffer.memory` = 4194304 in both variants");
        assertThatThrownBy(() -> new ClientSettings(0, -1, -1, 0, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theScanBatchCapReachesOnlyTheColumnarSourceTable() {
        ClientSettings capped = new ClientSettings(0, -1, -1, -1, 256, -1);
        assertThat(NexmarkSql.sourceTable("kafka-columnar", "b:9092", "in", "g", false, capped))
                .contains("'columnar.scan.max-batch-rows' = '256'");
        assertThat(NexmarkSql.sourceTable("kafka", "b:9092", "in", "g", false, capped))
                .doesNotContain("columnar.");
        assertThat(capped.describe()).contains("`columnar.scan.max-batch-rows` = 256");
        assertThatThrownBy(() -> new ClientSettings(0, -1, -1, -1, -1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theScanTimeTargetReachesOnlyTheColumnarSourceTableAndZeroIsSent() {
        ClientSettings timed = new ClientSettings(0, -1, -1, -1, 0, 2);
        assertThat(NexmarkSql.sourceTable("kafka-columnar", "b:9092", "in", "g", false, timed))
                .contains("'columnar.scan.max-batch-time' = '2 ms'");
        assertThat(NexmarkSql.sourceTable("kafka", "b:9092", "in", "g", false, timed)).doesNotContain("columnar.");
        assertThat(timed.describe()).contains("`columnar.scan.max-batch-time` = 2 ms");
        ClientSettings none = new ClientSettings(0, -1, -1, -1, 0, 0);
        assertThat(NexmarkSql.sourceTable("kafka-columnar", "b:9092", "in", "g", false, none))
                .contains("'columnar.scan.max-batch-time' = '0 ms'");
        assertThat(none.describe()).contains("no time target");
        assertThat(NexmarkSql.sourceTable("kafka-columnar", "b:9092", "in", "g", false, ClientSettings.DEFAULTS))
                .doesNotContain("max-batch-time");
        assertThatThrownBy(() -> new ClientSettings(0, -1, -1, -1, 0, -2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cellArgumentsCarryTheSettings() {
        ClientSettings settings = new ClientSettings(100, 524288, 20, 4_194_304, 256, 3);
        CellSpec spec = new CellSpec(NexmarkQuery.Q0, Variant.COLUMNAR, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "b:9092", "in",
                "out", "run", 0, 0, true, settings, "/tmp/c", "/tmp/r", JvmWarmUp.OFF);
        assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new)).clients()).isEqualTo(settings);
        assertThatThrownBy(() -> new ClientSettings(0, -2, -1, -1, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
