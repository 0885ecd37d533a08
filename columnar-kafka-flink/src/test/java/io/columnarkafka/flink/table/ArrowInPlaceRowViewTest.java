package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.runtime.typeutils.StringDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowInPlaceRowView} against the rows written into the batch: Flink's {@link RowDataSerializer} copies
 * each row read in place (as Flink's generated watermark code does) into the row that was written, byte for
 * byte in Flink's binary form.
 */
class ArrowInPlaceRowViewTest {
    private static final RowType TYPE = RowTypes.parse("ROW<id BIGINT, name STRING, "
            + "bid ROW<auction BIGINT, channel STRING, dateTime TIMESTAMP(3), extra STRING>, "
            + "b BYTES, a ARRAY<STRING>, c CHAR(3), empty STRING, "
            + "flat ROW<i INT, d DOUBLE, ok BOOLEAN, dt DATE, t TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), s SMALLINT>, "
            + "deep ROW<x INT, xs ARRAY<BIGINT>, bin BYTES>>");

    private static final List<GenericRowData> ROWS = List.of(
            row(1L, str("h\u00e9llo \uD83D\uDE00"), row(7L, str("Google"), ts("2015-07-15T00:00:00.001"),
                    str("a longer extra value than the seven inline bytes")), new byte[] {0, -1, 7},
                    array(str("x"), null), str("abc"), str(""),
                    row(-1, 2.5d, true, 16_000, ts("2015-07-15T00:00:00.123456"), ts("1970-01-01T00:00:00.007"),
                            (short) 3),
                    row(5, array(1L, null), new byte[] {9})),
            row(null, null, null, null, null, null, str(""), null, null),
            row(3L, str(""), row(null, null, null, str("")), new byte[0], array(), str("a  "), str(""),
                    row(null, null, null, null, null, null, null), row(null, null, null)),
            row(4L, str("seven b"), row(9L, str("Baidu"), ts("1969-12-31T23:59:59.999"), null), null, null, null,
                    str(""), row(Integer.MIN_VALUE, -0.0d, false, -1, ts("1969-12-31T23:59:59.999999"),
                            ts("2262-04-11T23:47:16.854"), Short.MIN_VALUE), row(7, array(), null)));

    private static GenericRowData row(Object... fields) {
        return GenericRowData.of(fields);
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    private static TimestampData ts(String isoLocalDateTime) {
        return TimestampData.fromLocalDateTime(LocalDateTime.parse(isoLocalDateTime));
    }

    private static GenericArrayData array(Object... elements) {
        return new GenericArrayData(elements);
    }

    @Test
    void flinksCopyOfEachRowReadInPlaceIsTheRowWritten() {
        RowDataSerializer flink = new RowDataSerializer(TYPE);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator)) {
            ROWS.forEach(writer::write);
            ArrowInPlaceRowView view = new ArrowInPlaceRowView(TYPE);
            view.bind(writer.finish());
            assertThat(view.rowCount()).isEqualTo(ROWS.size());
            for (int i = 0; i < ROWS.size(); i++) {
                RowData copy = flink.copy(view.row(i));
                assertThat(flink.toBinaryRow(copy).copy())
                        .as("row %d", i)
                        .isEqualTo(flink.toBinaryRow(ROWS.get(i)).copy());
            }
        }
    }

    @Test
    void stringsReadInPlaceEqualFlinksAndCopyOutOfTheBatch() {
        StringDataSerializer strings = StringDataSerializer.INSTANCE;
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator)) {
            ROWS.forEach(writer::write);
            ArrowInPlaceRowView view = new ArrowInPlaceRowView(TYPE);
            view.bind(writer.finish());
            RowData first = view.row(0);
            assertThat(first.getString(1)).isEqualTo(ROWS.get(0).getString(1));
            RowData bid = first.getRow(2, 4);
            assertThat(bid.getString(1).toString()).isEqualTo("Google");
            assertThat(bid.getString(3)).isEqualTo(ROWS.get(0).getRow(2, 4).getString(3));
            assertThat(strings.copy(bid.getString(3)).toString())
                    .isEqualTo("a longer extra value than the seven inline bytes");
            assertThat(view.row(3)).as("one reused row object").isSameAs(first);
            assertThat(first.getString(1).toString()).isEqualTo("seven b");
            assertThat(first.getString(6).toString()).isEmpty();
        }
    }

    /**
     * The whole-row writer is made once per view and follows each bound batch, whether the previous batch's binary
     * rows were read or not: every row of three batches, bound in turn, is Flink's binary row of the row written.
     */
    @Test
    void binaryRowsFollowEachBoundBatch() {
        RowDataSerializer flink = new RowDataSerializer(TYPE);
        ArrowInPlaceRowView view = new ArrowInPlaceRowView(TYPE);
        List<List<GenericRowData>> batches = List.of(ROWS.subList(0, 2), ROWS.subList(2, 4), List.of(ROWS.get(3),
                ROWS.get(0), ROWS.get(1)));
        int compared = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int b = 0; b < batches.size(); b++) {
                try (RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, allocator)) {
                    batches.get(b).forEach(writer::write);
                    view.bind(writer.finish());
                    if (b == 1) {
                        continue; // bound, never read as binary rows
                    }
                    for (int i = 0; i < view.rowCount(); i++) {
                        assertThat(view.binaryRow(i).copy()).as("batch %d row %d", b, i)
                                .isEqualTo(flink.toBinaryRow(batches.get(b).get(i)).copy());
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(5);
    }

    @Test
    void aBatchOfAnotherLayoutIsRejectedAndAnOutOfRangeRowRefused() {
        ArrowInPlaceRowView view = new ArrowInPlaceRowView(TYPE);
        assertThatThrownBy(() -> view.row(0)).isInstanceOf(IndexOutOfBoundsException.class);
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(RowTypes.parse("ROW<id INT>"), allocator)) {
            assertThatThrownBy(() -> view.bind(writer.finish())).isInstanceOf(BatchLayoutException.class);
        }
    }
}
