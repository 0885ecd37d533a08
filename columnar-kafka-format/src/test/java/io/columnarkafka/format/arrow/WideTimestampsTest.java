package io.columnarkafka.format.arrow;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.map;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout.NanoTimestamps;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** The full-range layout of nanosecond timestamps, written by {@link RowDataArrowWriter}. */
class WideTimestampsTest {
    private static final RowType TYPE = RowTypes.parse("ROW<t9 TIMESTAMP(9), l7 TIMESTAMP_LTZ(7), t3 TIMESTAMP(3),"
            + " a ARRAY<TIMESTAMP(9)>, m MAP<STRING, TIMESTAMP_LTZ(8)>, r ROW<x TIMESTAMP(9)>>");
    private static final List<String> EDGES = List.of("0001-01-01T00:00:00", "0001-01-01T00:00:00.000000001",
            "1677-09-21T00:12:43.145224191", "1969-12-31T23:59:59.999999999", "1970-01-01T00:00:00",
            "2262-04-11T23:47:16.854775808", "9999-12-31T23:59:59.999999999");

    private static TimestampData ts(String text) {
        return TimestampData.fromLocalDateTime(LocalDateTime.parse(text));
    }

    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        for (String edge : EDGES) {
            TimestampData t = ts(edge);
            rows.add(row(t, t, TimestampData.fromEpochMillis(t.getMillisecond()), array(t, null),
                    map(str("k"), t, str("n"), null), row(t)));
        }
        rows.add(new GenericRowData(TYPE.getFieldCount()));
        return rows;
    }

    @Test
    void carriesFlinksWholeRangeFromGenericAndBinaryRows() {
        RowDataSerializer serializer = new RowDataSerializer(TYPE);
        List<RowData> generic = rows();
        List<RowData> binary = new ArrayList<>();
        generic.forEach(r -> binary.add(serializer.toBinaryRow(r).copy()));
        try (BufferAllocator allocator = new RootAllocator()) {
            for (List<RowData> rows : List.of(generic, binary)) {
                try (RowDataArrowWriter writer =
                        new RowDataArrowWriter(TYPE, null, NanoTimestamps.EPOCH_MILLIS_AND_NANOS, allocator)) {
                    rows.forEach(writer::write);
                    VectorSchemaRoot root = writer.finish();
                    assertThat(root.getSchema()).isEqualTo(ArrowLayout.schema(TYPE, NanoTimestamps.EPOCH_MILLIS_AND_NANOS));
                    ArrowLayout.check(TYPE, root); // the full-range layout is accepted where nanoseconds are expected
                    assertThat(root.getVector("t3").getField().getType()).isNotEqualTo(WideTimestamps.ARROW_TYPE);
                    FixedSizeBinaryVector t9 = (FixedSizeBinaryVector) root.getVector("t9");
                    FixedSizeBinaryVector l7 = (FixedSizeBinaryVector) root.getVector("l7");
                    long data = t9.getDataBuffer().memoryAddress();
                    for (int i = 0; i < EDGES.size(); i++) {
                        TimestampData expected = ts(EDGES.get(i));
                        assertThat(TimestampData.fromEpochMillis(WideTimestamps.millis(data, i),
                                WideTimestamps.nanoOfMilli(data, i))).as(EDGES.get(i)).isEqualTo(expected);
                        assertThat(l7.get(i)).hasSize(WideTimestamps.BYTE_WIDTH);
                    }
                    assertThat(t9.isNull(EDGES.size())).isTrue();
                    assertThat(writer.directRowCount()).isEqualTo(rows.get(0) instanceof GenericRowData ? 0 : rows.size());
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void arrowNanosecondsRejectWhatTheFullRangeLayoutTakes() {
        RowType type = RowTypes.parse("ROW<t TIMESTAMP(9)>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator)) {
            assertThatThrownBy(() -> writer.write(row(ts("0001-01-01T00:00:00"))))
                    .hasMessageContaining("column 't', row 0")
                    .hasMessageContaining("outside the range of Arrow nanosecond timestamps");
        }
    }

    @Test
    void aWrongWidthIsNotTakenForTheLayout() {
        RowType type = RowTypes.parse("ROW<t TIMESTAMP(9)>");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
                        new Field("t", FieldType.nullable(new ArrowType.FixedSizeBinary(8)), null))), allocator)) {
            assertThatThrownBy(() -> ArrowLayout.check(type, root)).isInstanceOf(BatchLayoutException.class)
                    .hasMessageContaining("'t'").hasMessageContaining("FixedSizeBinary(8)");
        }
    }
}
