package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.FlinkJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.debezium.DebeziumJsonDeserializationSchema;
import org.apache.flink.formats.json.debezium.DebeziumJsonSerializationSchema;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The generator's records against Flink's own debezium-json: every row written as Flink's serializer writes it (its
 * INSERT event around it, byte for byte), and every event read back by Flink's deserializer as the rows and kinds
 * the generator meant. Flink's {@code json} serializer writes the same row bytes ({@link FlinkJson}).
 */
class DebeziumJsonTest {
    private static final int RECORDS = 20_000;

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOthers() {
        assertThat(values(7, 2_000)).isEqualTo(values(7, 2_000)).isNotEqualTo(values(8, 2_000));
    }

    @Test
    void everyRowIsWhatFlinksDebeziumSerializerWrites() throws Exception {
        SerializationSchema<RowData> debezium = new DebeziumJsonSerializationSchema(OrderRow.TYPE,
                TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        debezium.open(null);
        SerializationSchema<RowData> json = FlinkJson.openSerializer(OrderRow.TYPE);
        List<OrderRow> rows = new ArrayList<>();
        OrderChanges changes = new OrderChanges(42, RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            ChangeEvent event = changes.next();
            if (event.after() != null || event.before() != null) {
                rows.add(event.after() != null ? event.after() : event.before());
            }
        }
        // Amounts the sample may lack: a whole hundred (Flink writes 7E+2), zero, a single fraction digit.
        for (String amount : List.of("700.00", "0.00", "0.10")) {
            rows.add(new OrderRow(1, null, new BigDecimal(amount), LocalDateTime.of(1900, 1, 1, 0, 0), null, null,
                    "NEW", ""));
        }
        for (OrderRow row : rows) {
            StringBuilder ours = new StringBuilder();
            DebeziumJson.row(ours, row);
            GenericRowData insert = rowData(row, RowKind.INSERT);
            assertThat(utf8(json.serialize(insert))).isEqualTo(ours.toString());
            assertThat(utf8(debezium.serialize(insert))).isEqualTo("{\"before\":null,\"after\":" + ours + ",\"op\":\"c\"}");
        }
    }

    /** The mix the benchmark's queries see: every op, tombstones after deletes, nulls, text outside the BMP. */
    @Test
    void flinksDeserializerReadsEveryEventAsTheRowsMeant() throws Exception {
        DebeziumJsonDeserializationSchema flink = new DebeziumJsonDeserializationSchema(
                TypeConversions.fromLogicalToDataType(OrderRow.TYPE), List.of(), InternalTypeInfo.of(OrderRow.TYPE),
                false, false, TimestampFormat.SQL);
        flink.open(null);
        OrderChanges changes = new OrderChanges(42, RECORDS);
        Map<ChangeEvent.Op, Integer> ops = new EnumMap<>(ChangeEvent.Op.class);
        ChangeEvent previous = null;
        for (int i = 0; i < RECORDS; i++) {
            ChangeEvent event = changes.next();
            ops.merge(event.op(), 1, Integer::sum);
            assertThat(utf8(DebeziumJson.key(event))).isEqualTo("{\"id\":" + event.id() + "}");
            if (event.op() == ChangeEvent.Op.TOMBSTONE) {
                assertThat(DebeziumJson.value(event)).isNull();
                assertThat(previous.op()).isEqualTo(ChangeEvent.Op.DELETE);
                assertThat(previous.id()).isEqualTo(event.id());
            } else {
                List<RowData> read = new ArrayList<>();
                flink.deserialize(DebeziumJson.value(event), collector(read));
                assertThat(read).as("record %d", i).isEqualTo(meant(event));
            }
            previous = event;
        }
        assertThat(ops).containsOnlyKeys(ChangeEvent.Op.values());
        assertThat(ops.get(ChangeEvent.Op.UPDATE)).isGreaterThan(RECORDS / 2);
        assertThat(ops.get(ChangeEvent.Op.TOMBSTONE)).isEqualTo(ops.get(ChangeEvent.Op.DELETE)).isGreaterThan(RECORDS / 20);
        String all = String.join("\n", values(42, RECORDS));
        assertThat(all).contains("\"customer\":null", "\"amount\":null", "\"quantity\":null", "\"paid\":null",
                "\\\"", "\\\\", "\\n", "\\t", "\\u0007", "\\uD83D\\uDE00", "Zoë", "\"created\":\"1941-", "\"created\":\"2038-");
        assertThat(all).as("a whole amount, as Flink writes it").containsPattern("\"amount\":\\d+,");
    }

    /** The rows Debezium's op means for Flink: an insert, an update's two halves, a delete. */
    private static List<RowData> meant(ChangeEvent event) {
        return switch (event.op()) {
            case READ, CREATE -> List.of(rowData(event.after(), RowKind.INSERT));
            case UPDATE -> List.of(rowData(event.before(), RowKind.UPDATE_BEFORE),
                    rowData(event.after(), RowKind.UPDATE_AFTER));
            case DELETE -> List.of(rowData(event.before(), RowKind.DELETE));
            case TOMBSTONE -> List.of();
        };
    }

    private static GenericRowData rowData(OrderRow row, RowKind kind) {
        return GenericRowData.ofKind(kind, row.id(), StringData.fromString(row.customer()),
                row.amount() == null ? null : DecimalData.fromBigDecimal(row.amount(), 12, 2),
                TimestampData.fromLocalDateTime(row.created()), row.quantity(), row.paid(),
                StringData.fromString(row.status()), StringData.fromString(row.note()));
    }

    private static List<String> values(long seed, int records) {
        OrderChanges changes = new OrderChanges(seed, records);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            byte[] value = DebeziumJson.value(changes.next());
            values.add(value == null ? "tombstone" : utf8(value));
        }
        return values;
    }

    private static Collector<RowData> collector(List<RowData> into) {
        return new Collector<>() {
            @Override
            public void collect(RowData row) {
                into.add(row);
            }

            @Override
            public void close() {}
        };
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
