package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.text.DateText;
import io.columnarkafka.format.text.TimeText;
import io.columnarkafka.format.text.TimestampText;
import org.apache.arrow.memory.util.MemoryUtil;
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
     * TIMESTAMP_LTZ the same with a {@code Z} (Flink formats the same local date-time, at UTC).
     */
    static final class Timestamp extends FixedWidthCsvWriter {
        private final TimestampText text;

        Timestamp(String path, TimeUnit unit, boolean zulu) {
            super(path, true, 8);
            this.text = TimestampText.localDateTime(path, unit, ' ', zulu);
        }

        @Override
        void write(ByteOutput out, int index) {
            text.write(out, MemoryUtil.getLong(data + 8L * index));
        }
    }
}
