package io.columnarkafka.format.json;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ as Flink's converters read them ({@code timestamp-format.standard} SQL or
 * ISO-8601; TIMESTAMP_LTZ with a literal {@code Z}, read as UTC), stored in the Arrow unit of the declared
 * precision. Flink's {@code TimestampData} keeps every fraction digit of the text whatever the precision;
 * the Arrow unit keeps those its unit holds and drops the rest toward the past (a floor of the epoch
 * value), which is also what Flink's {@code BinaryRowData} keeps for precision 0–3 (milliseconds). For
 * precision 4–6 (Arrow microseconds; Flink keeps nanoseconds) this is a named divergence, for which SQL
 * scans fall back, see {@code docs/formats-text.md}. A value the unit's
 * 64 bits cannot hold (nanoseconds outside 1677–2262) is rejected.
 */
final class TimestampJsonReader extends JsonReader {
    private static final long SECONDS_PER_DAY = 86_400L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final TimeUnit unit;
    private final boolean iso;
    private final boolean zulu;
    private final JsonTemporalText text = new JsonTemporalText();
    private TimeStampVector vector;

    TimestampJsonReader(String path, boolean ignoreParseErrors, TimeUnit unit, boolean iso, boolean zulu) {
        super(path, ignoreParseErrors);
        this.unit = unit;
        this.iso = iso;
        this.zulu = zulu;
    }

    private final FixedWidthBuffers buffers = new FixedWidthBuffers();

    @Override
    void bind(FieldVector v) {
        vector = (TimeStampVector) v;
        count = 0;
        buffers.bind(vector);
    }

    @Override
    void readValue(JsonTokenizer t) {
        text.parseTimestamp(t, iso, zulu);
        long value = epochValue(text.epochDay, text.nanoOfDay);
        buffers.ensureRoom(count);
        MemoryUtil.putLong(buffers.values + 8L * count, value);
        ArrowAppend.setValid(buffers.validity, count++);
    }

    /**
     * The epoch value in the unit: Flink's value ({@code TimestampData}: epoch milliseconds and nanos of
     * the millisecond) with the digits below the unit dropped toward the past. Seconds and the sub-second
     * part are combined so that no intermediate overflows (the first nanosecond, 1677-09-21T00:12:43.145224192,
     * is exactly {@code Long.MIN_VALUE}).
     */
    private long epochValue(long epochDay, long nanoOfDay) {
        try {
            long seconds = Math.addExact(Math.multiplyExact(epochDay, SECONDS_PER_DAY), nanoOfDay / NANOS_PER_SECOND);
            long nanos = nanoOfDay % NANOS_PER_SECOND;
            switch (unit) {
                case SECOND:
                    return seconds;
                case MILLISECOND:
                    return combine(seconds, nanos / 1_000_000L, 1000L);
                case MICROSECOND:
                    return combine(seconds, nanos / 1000L, 1_000_000L);
                default:
                    return combine(seconds, nanos, NANOS_PER_SECOND);
            }
        } catch (ArithmeticException e) {
            throw new JsonReadException(path, "timestamp '" + t(epochDay, nanoOfDay)
                    + "' is out of range of Arrow " + unit + " timestamps (64-bit)");
        }
    }

    /** {@code seconds * perSecond + fraction} without an intermediate overflow below zero. */
    private static long combine(long seconds, long fraction, long perSecond) {
        if (seconds < 0 && fraction > 0) {
            return Math.addExact(Math.multiplyExact(seconds + 1, perSecond), fraction - perSecond);
        }
        return Math.addExact(Math.multiplyExact(seconds, perSecond), fraction);
    }

    private static String t(long epochDay, long nanoOfDay) {
        return java.time.LocalDateTime.of(java.time.LocalDate.ofEpochDay(epochDay),
                java.time.LocalTime.ofNanoOfDay(nanoOfDay)).toString();
    }

    @Override
    void appendNull() {
        buffers.ensureRoom(count);
        ArrowAppend.setNull(buffers.validity, count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
    }
}
