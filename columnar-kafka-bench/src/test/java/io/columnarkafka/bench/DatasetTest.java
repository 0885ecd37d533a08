package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.util.Text;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

class DatasetTest {

    @Test
    void bidRowsAreAbout230BytesOfFlinkJson() throws Exception {
        JsonRowDataSerializationSchema flink = FlinkJson.openSerializer(Dataset.BID.rowType());
        long bytes = 0;
        int rows = 20_000;
        for (int i = 0; i < rows; i++) {
            bytes += flink.serialize(Dataset.BID.row(i)).length;
        }
        assertThat(bytes / (double) rows).isBetween(220.0, 240.0);
        assertThat(new String(flink.serialize(Dataset.BID.row(0)), StandardCharsets.UTF_8))
                .startsWith("{\"auction\":1000,\"bidder\":1001,\"price\":")
                .contains("\"dateTime\":\"2015-07-15 00:00:00\"");
    }

    @Test
    void adversarialRowsNeedEscapesMultiByteTextAndSpreadTimestamps() throws Exception {
        JsonRowDataSerializationSchema flink = FlinkJson.openSerializer(Dataset.ADVERSARIAL.rowType());
        int rows = 4096;
        int escapes = 0, controls = 0, nonBmp = 0, multiByte = 0, beforeEpoch = 0;
        java.util.Set<Long> seconds = new java.util.HashSet<>();
        java.util.Set<Long> days = new java.util.HashSet<>();
        for (int i = 0; i < rows; i++) {
            RowData row = Dataset.ADVERSARIAL.row(i);
            String json = new String(flink.serialize(row), StandardCharsets.UTF_8);
            escapes += json.contains("\\\"") || json.contains("\\\\") ? 1 : 0;
            controls += json.contains("\\u00") || json.contains("\\n") || json.contains("\\t") ? 1 : 0;
            nonBmp += json.codePoints().anyMatch(Character::isSupplementaryCodePoint)
                    || json.contains("\\uD8") ? 1 : 0;
            multiByte += json.chars().anyMatch(c -> c > 0x7f) ? 1 : 0;
            long millis = row.getTimestamp(5, 3).getMillisecond();
            beforeEpoch += millis < 0 ? 1 : 0;
            seconds.add(Math.floorDiv(millis, 1000));
            days.add(Math.floorDiv(millis, 86_400_000L));
        }
        assertThat(escapes).as("rows with quotes or backslashes to escape").isGreaterThan(rows / 2);
        assertThat(controls).as("rows with control characters").isGreaterThan(rows / 2);
        assertThat(nonBmp).as("rows with non-BMP characters").isGreaterThan(rows / 4);
        assertThat(multiByte).as("rows with non-ASCII text").isGreaterThan(rows / 2);
        assertThat(beforeEpoch).as("rows before 1970").isGreaterThan(rows / 10);
        assertThat(seconds).as("distinct seconds").hasSizeGreaterThan(rows * 99 / 100);
        assertThat(days).as("distinct days").hasSizeGreaterThan(rows * 9 / 10);
    }

    @Test
    void adversarialArrowBatchHoldsTheSameValuesAsTheRows() {
        int rows = 512;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowLayout.schema(Dataset.ADVERSARIAL.rowType()), allocator)) {
            Dataset.ADVERSARIAL.fill(batch, rows);
            assertThat(batch.getRowCount()).isEqualTo(rows);
            for (int i = 0; i < rows; i++) {
                RowData row = Dataset.ADVERSARIAL.row(i);
                for (int f = 0; f < 3; f++) {
                    assertThat(batch.getVector(f).getObject(i)).as("row %d field %d", i, f).isEqualTo(row.getLong(f));
                }
                for (int f : new int[] {3, 4, 6}) {
                    assertThat(batch.getVector(f).getObject(i)).as("row %d field %d", i, f)
                            .isEqualTo(new Text(row.getString(f).toBytes()));
                }
                assertThat(((TimeStampMilliVector) batch.getVector(5)).get(i)).as("row %d", i)
                        .isEqualTo(row.getTimestamp(5, 3).getMillisecond());
            }
        }
    }

    @Test
    void wideArrowBatchHoldsTheSameValuesAsTheRows() {
        int rows = 512;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowLayout.schema(WideRows.WIDE_TYPE), allocator)) {
            Dataset.WIDE.fill(batch, rows);
            assertThat(batch.getRowCount()).isEqualTo(rows);
            for (int i = 0; i < rows; i++) {
                assertRowEquals(batch, i, Dataset.WIDE.row(i));
            }
        }
    }

    @Test
    void wideRowsCoverNullsAtEveryLevel() {
        boolean nullAmount = false, nullAddress = false, nullZip = false, nullTag = false, nullCounter = false,
                nullNote = false;
        for (int i = 0; i < 512; i++) {
            RowData row = Dataset.WIDE.row(i);
            nullAmount |= row.isNullAt(2);
            nullAddress |= row.isNullAt(11);
            nullZip |= !row.isNullAt(11) && row.getRow(11, 3).isNullAt(2);
            ArrayData tags = row.getArray(12);
            for (int t = 0; t < tags.size(); t++) {
                nullTag |= tags.isNullAt(t);
            }
            MapData counters = row.getMap(13);
            for (int e = 0; e < counters.size(); e++) {
                nullCounter |= counters.valueArray().isNullAt(e);
            }
            nullNote |= row.isNullAt(14);
        }
        assertThat(List.of(nullAmount, nullAddress, nullZip, nullTag, nullCounter, nullNote)).containsOnly(true);
    }

    private static void assertRowEquals(VectorSchemaRoot batch, int i, RowData row) {
        String at = "row " + i;
        for (int column = 0; column < WideRows.WIDE_TYPE.getFieldCount(); column++) {
            assertThat(batch.getVector(column).isNull(i)).as(at + " column " + column).isEqualTo(row.isNullAt(column));
        }
        assertThat(batch.getVector("id").getObject(i)).as(at).isEqualTo(row.getLong(0));
        assertThat(batch.getVector("name").getObject(i)).as(at).isEqualTo(new Text(row.getString(1).toBytes()));
        if (!row.isNullAt(2)) {
            assertThat(batch.getVector("amount").getObject(i)).as(at)
                    .isEqualTo(row.getDecimal(2, 10, 2).toBigDecimal());
        }
        assertThat(batch.getVector("total").getObject(i)).as(at).isEqualTo(row.getDecimal(3, 30, 6).toBigDecimal());
        assertThat(batch.getVector("ratio").getObject(i)).as(at).isEqualTo(row.getDouble(4));
        assertThat(batch.getVector("score").getObject(i)).as(at).isEqualTo(row.getFloat(5));
        assertThat(batch.getVector("active").getObject(i)).as(at).isEqualTo(row.getBoolean(6));
        if (!row.isNullAt(7)) {
            assertThat(batch.getVector("quantity").getObject(i)).as(at).isEqualTo(row.getInt(7));
        }
        assertThat(((DateDayVector) batch.getVector("born")).get(i)).as(at).isEqualTo(row.getInt(8));
        assertThat(((TimeStampMilliVector) batch.getVector("updated")).get(i)).as(at)
                .isEqualTo(row.getTimestamp(9, 3).getMillisecond());
        TimestampData seen = row.getTimestamp(10, 6);
        assertThat(((TimeStampMicroTZVector) batch.getVector("seen")).get(i)).as(at)
                .isEqualTo(seen.getMillisecond() * 1000 + seen.getNanoOfMillisecond() / 1000);
        if (!row.isNullAt(11)) {
            RowData address = row.getRow(11, 3);
            Map<?, ?> struct = ((StructVector) batch.getVector("address")).getObject(i);
            assertThat(struct.get("street")).as(at).isEqualTo(new Text(address.getString(0).toBytes()));
            assertThat(struct.get("city")).as(at).isEqualTo(new Text(address.getString(1).toBytes()));
            assertThat(struct.get("zip")).as(at).isEqualTo(address.isNullAt(2) ? null : address.getInt(2));
        }
        List<?> tags = ((ListVector) batch.getVector("tags")).getObject(i);
        ArrayData expectedTags = row.getArray(12);
        assertThat(tags).as(at).hasSize(expectedTags.size());
        for (int t = 0; t < tags.size(); t++) {
            assertThat(tags.get(t)).as(at + " tag " + t)
                    .isEqualTo(expectedTags.isNullAt(t) ? null : new Text(expectedTags.getString(t).toBytes()));
        }
        List<?> entries = ((MapVector) batch.getVector("counters")).getObject(i);
        MapData expectedCounters = row.getMap(13);
        assertThat(entries).as(at).hasSize(expectedCounters.size());
        for (int e = 0; e < entries.size(); e++) {
            Map<?, ?> entry = (Map<?, ?>) entries.get(e);
            assertThat(entry.get("key")).as(at).isEqualTo(new Text(expectedCounters.keyArray().getString(e).toBytes()));
            assertThat(entry.get("value")).as(at).isEqualTo(
                    expectedCounters.valueArray().isNullAt(e) ? null : expectedCounters.valueArray().getLong(e));
        }
        if (!row.isNullAt(14)) {
            assertThat(batch.getVector("note").getObject(i)).as(at).isEqualTo(new Text(row.getString(14).toBytes()));
        }
    }
}
