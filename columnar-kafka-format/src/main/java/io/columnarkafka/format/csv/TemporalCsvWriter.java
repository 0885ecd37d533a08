package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.arrow.WideTimestamps;
import io.columnarkafka.format.text.DateText;
import io.columnarkafka.format.text.TimeText;
import io.columnarkafka.format.text.TimestampText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.TimeUnit;

/** DATE, TIME and TIMESTAMP / TIMESTAMP_LTZ columns as the text Flink's CSV converters write. */
final class TemporalCsvWriter {
    private TemporalCsvWriter() {}

    /** DATE (Arrow Date DAY) as {@code ISO_LOCAL_DATE}. */
    static final class Date extends FixedWidthCsvWriter {
        private final DateText dates = new DateText();

        Date(String path) {
            super(path, true, 4);
        }

        @Override
        void write(ByteOutput out, int index) {
            dates.write(out, MemoryUtil.getInt(data + 4L * index));
        }
    }

    /**
     * TIME (Arrow Time MILLISECOND) as {@code ISO_LOCAL_TIME} of {@code LocalTime.ofNanoOfDay(millis *
     * 10^6)}: {@code HH:mm:ss} plus the milliseconds with trailing zeros stripped; a value outside the day
     * fails as it does in Flink.
     */
    static final class Time extends FixedWidthCsvWriter {
        private static final int MILLIS_PER_DAY = 86_400_000;

        Time(String path) {
            super(path, true, 4);
        }

        @Override
        void write(ByteOutput out, int index) {
            int millis = MemoryUtil.getInt(data + 4L * index);
            if (millis < 0 || millis >= MILLIS_PER_DAY) {
                throw new EncodeException(
                        path, out.row(), "TIME value " + millis + " ms is outside a day (0 to 86399999 ms)");
            }
            out.ensure(18);
            TimeText.writeTimeOfDay(out, millis / 1000);
            TimeText.writeFraction(out, millis % 1000 * 1_000_000);
        }
    }

    /**
     * TIMESTAMP as {@code yyyy-MM-dd HH:mm:ss[.fraction]} of {@code TimestampData.toLocalDateTime()};
     * TIMESTAMP_LTZ the same with a {@code Z} (Flink formats the same local date-time, at UTC). A
     * precision 7–9 column may come in the {@link WideTimestamps} layout instead, decided per batch.
     */
    static final class Timestamp extends CsvValueWriter {
        private final TimestampText text;
        private long data;
        /** The bound batch carries the column in the {@link WideTimestamps} layout. */
        private boolean wide;

        Timestamp(String path, TimeUnit unit, boolean zulu) {
            super(path, true);
            this.text = TimestampText.localDateTime(path, unit, ' ', zulu);
        }

        @Override
        protected void bindValues(ValueVector vector, int count) {
            wide = WideTimestamps.carries(vector);
            data = address(vector.getDataBuffer(), (long) count * (wide ? WideTimestamps.BYTE_WIDTH : 8), "data");
        }

        @Override
        void write(ByteOutput out, int index) {
            if (wide) {
                out.ensure(TimestampText.MAX_BYTES);
                out.pos = text.put(out, out.pos, WideTimestamps.millis(data, index),
                        WideTimestamps.nanoOfMilli(data, index));
            } else {
                text.write(out, MemoryUtil.getLong(data + 8L * index));
            }
        }
    }
}
