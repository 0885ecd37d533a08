package io.columnarkafka.format.json;

import io.columnarkafka.format.EncodeException;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ (Arrow Timestamp in SECOND, MILLISECOND, MICROSECOND or NANOSECOND) as
 * Flink's {@code TimeFormats} spell them: the date, {@code ' '} (SQL) or {@code 'T'} (ISO-8601),
 * {@code HH:mm:ss}, then the fraction of the second with trailing zeros stripped (none if zero),
 * whatever the declared precision; TIMESTAMP_LTZ at UTC with a {@code Z} suffix.
 *
 * <p>Values reach Flink as {@code TimestampData} (epoch millis plus nanos of the milli). For TIMESTAMP
 * Flink computes the day as {@code (int) (millis / 86400000)}, which this writer reproduces, including
 * its wrap-around for days beyond the int range.
 */
final class TimestampJsonWriter extends JsonValueWriter {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final DateText dates = new DateText();
    private final TimeUnit unit;
    private final boolean utc;
    private final byte separator;
    private long data;

    TimestampJsonWriter(String path, TimeUnit unit, boolean utc, boolean iso) {
        super(path);
        this.unit = unit;
        this.utc = utc;
        this.separator = (byte) (iso ? 'T' : ' ');
    }

    @Override
    void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 8, "data");
    }

    @Override
    void write(JsonOutput out, int index) {
        long value = MemoryUtil.getLong(data + 8L * index);
        long millis;
        int nanoOfMilli;
        switch (unit) {
            case SECOND:
                if (value > Long.MAX_VALUE / 1000 || value < Long.MIN_VALUE / 1000) {
                    throw new EncodeException(path, out.row(),
                            "TIMESTAMP value " + value + " s does not fit epoch milliseconds");
                }
                millis = value * 1000;
                nanoOfMilli = 0;
                break;
            case MILLISECOND:
                millis = value;
                nanoOfMilli = 0;
                break;
            case MICROSECOND:
                millis = Math.floorDiv(value, 1000L);
                nanoOfMilli = (int) Math.floorMod(value, 1000L) * 1000;
                break;
            default:
                millis = Math.floorDiv(value, 1_000_000L);
                nanoOfMilli = (int) Math.floorMod(value, 1_000_000L);
                break;
        }
        long day;
        int millisOfDay;
        if (utc) {
            day = Math.floorDiv(millis, MILLIS_PER_DAY);
            millisOfDay = (int) Math.floorMod(millis, MILLIS_PER_DAY);
        } else {
            int flinkDay = (int) (millis / MILLIS_PER_DAY);
            millisOfDay = (int) (millis % MILLIS_PER_DAY);
            if (millisOfDay < 0) {
                flinkDay--;
                millisOfDay += (int) MILLIS_PER_DAY;
            }
            day = flinkDay;
        }
        out.writeByte((byte) '"');
        dates.write(out, day);
        out.ensure(22);
        out.buf[out.pos++] = separator;
        TimeMilliJsonWriter.writeTimeOfDay(out, millisOfDay / 1000);
        int nanoOfSecond = millisOfDay % 1000 * 1_000_000 + nanoOfMilli;
        if (nanoOfSecond != 0) {
            out.buf[out.pos++] = '.';
            out.writePadded(nanoOfSecond, 9);
            while (out.buf[out.pos - 1] == '0') {
                out.pos--;
            }
        }
        if (utc) {
            out.buf[out.pos++] = 'Z';
        }
        out.buf[out.pos++] = '"';
    }
}
