package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.testkit.TopicRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The floor's lookup table: a value per kept (partition, offset), nothing elsewhere (dropped records, offsets past
 * a partition's last kept one, partitions with none), the same after a write and read, and no input record with two
 * values; the precompute's tagged records parsed into it, and its SQL carrying the input position to the key.
 */
class FloorTableTest {
    @TempDir
    Path dir;

    @Test
    void looksUpKeptRecordsAndNothingElseAndSurvivesAWriteAndRead() throws Exception {
        FloorTable table = new FloorTable.Builder()
                .put(0, 0, bytes("a"))
                .put(0, 5, bytes("b"))
                .put(2, 1, bytes(""))
                .build();
        FloorTable read = roundTrip(table);
        for (FloorTable t : List.of(table, read)) {
            assertThat(t.value(0, 0)).asString().isEqualTo("a");
            assertThat(t.value(0, 5)).asString().isEqualTo("b");
            assertThat(t.value(2, 1)).isEmpty();
            assertThat(t.value(0, 3)).as("dropped").isNull();
            assertThat(t.value(0, 6)).as("past the last kept").isNull();
            assertThat(t.value(1, 0)).as("a partition with none").isNull();
            assertThat(t.value(3, 0)).as("a partition past the last").isNull();
            assertThat(t.kept()).isEqualTo(3);
        }
    }

    @Test
    void anInputRecordWithTwoValuesFails() {
        FloorTable.Builder builder = new FloorTable.Builder().put(1, 7, bytes("x"));
        assertThatThrownBy(() -> builder.put(1, 7, bytes("y"))).hasMessageContaining("1@7");
    }

    @Test
    void theTaggedRecordsKeyNamesTheInputPosition() {
        FloorTable table = FloorPrecompute.table(List.of(
                record("{\"floor_partition\":1,\"floor_offset\":40}", "{\"auction\":1}"),
                record("{\"floor_partition\":0,\"floor_offset\":3}", "{\"auction\":2}")));
        assertThat(table.value(1, 40)).asString().isEqualTo("{\"auction\":1}");
        assertThat(table.value(0, 3)).asString().isEqualTo("{\"auction\":2}");
        assertThat(table.kept()).isEqualTo(2);
        assertThatThrownBy(() -> FloorPrecompute.table(List.of(record("{\"auction\":1}", "{}"))))
                .hasMessageContaining("not an input position");
    }

    @Test
    void thePrecomputeRunsTheQueryAsWrittenWithTheInputPositionAsItsKey() {
        List<String> sql = FloorPrecompute.statements(NexmarkQuery.Q2, "b:9092", "in", "tagged");
        assertThat(sql.get(0)).startsWith("CREATE TABLE nexmark (\n    floor_partition INT METADATA FROM 'partition'"
                + " VIRTUAL, floor_offset BIGINT METADATA FROM 'offset' VIRTUAL,\n    `event_type`")
                .contains("'topic' = 'in'").doesNotContain("WATERMARK");
        assertThat(sql).filteredOn(s -> s.startsWith("CREATE VIEW bid ")).singleElement().asString()
                .contains("SELECT floor_partition, floor_offset, bid.auction");
        assertThat(sql.get(sql.size() - 2)).startsWith("CREATE TABLE nexmark_q2 (floor_partition INT, floor_offset"
                + " BIGINT, auction BIGINT, price BIGINT)").contains("'key.fields' = 'floor_partition;floor_offset'")
                .contains("'value.fields-include' = 'EXCEPT_KEY'").contains("'value.format' = 'json'");
        assertThat(sql.get(sql.size() - 1)).isEqualTo("INSERT INTO nexmark_q2 SELECT floor_partition, floor_offset,"
                + " auction, price FROM bid WHERE MOD(auction, 123) = 0");
        assertThatThrownBy(() -> FloorPrecompute.statements(NexmarkQuery.Q5, "b:9092", "in", "tagged"))
                .hasMessageContaining("stateful");
        assertThatThrownBy(() -> FloorPrecompute.once("SELECT a FROM (SELECT b)", "SELECT ", "x"))
                .hasMessageContaining("not exactly one");
    }

    private FloorTable roundTrip(FloorTable table) throws Exception {
        Path file = FloorTable.file(dir, NexmarkQuery.Q0);
        table.write(file);
        return FloorTable.read(file);
    }

    private static TopicRecord record(String key, String value) {
        return new TopicRecord(0, 0, 0, TimestampType.CREATE_TIME, bytes(key), bytes(value), List.of());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
