package io.columnarkafka.format.json;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * TIMESTAMP and TIMESTAMP_LTZ as Flink's converters read them ({@code timestamp-format.standard} SQL or
 * ISO-8601; TIMESTAMP_LTZ with a literal {@code Z}, read as UTC), stored in the Arrow unit of the declared
 * precision. Flink's {@code TimestampData} keeps every fraction digit of the text whatever the precision;
 * the Arrow unit keeps those its unit holds and drops the rest toward the past (a floor of the epoch
 * value), which is also what Flink's {@code BinaryRowData} keeps for precision 1–3 (milliseconds). For
 * precision 0 (Arrow seconds; Flink's binary row keeps milliseconds) and 4–6 (Arrow microseconds; Flink
 * keeps nanoseconds) this is a named divergence, see {@code docs/formats-text.md}. A value the unit's
 * 64 bits cannot hold (nanoseconds outside 1677–2262) is rejected.
 */
final class TimestampJsonReader extends JsonReader {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

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

    @Override
    void bind(FieldVector v) {
        vector = (TimeStampVector) v;
        count = 0;
    }

    @Override
    void readValue(JsonTokenizer t) {
        text.parseTimestamp(t, iso, zulu);
        vector.setSafe(count++, epochValue(text.epochDay, text.nanoOfDay));
    }

    /** The epoch value in the unit, from Flink's millisecond and nano-of-millisecond split. */
    private long epochValue(long epochDay, long nanoOfDay) {
        try {
            long millis = Math.addExact(Math.multiplyExact(epochDay, MILLIS_PER_DAY), nanoOfDay / NANOS_PER_MILLI);
            long nanoOfMilli = nanoOfDay % NANOS_PER_MILLI;
            switch (unit) {
                case SECOND:
                    return Math.floorDiv(millis, 1000L);
                case MILLISECOND:
                    return millis;
                case MICROSECOND:
                    return Math.addExact(Math.multiplyExact(millis, 1000L), nanoOfMilli / 1000L);
                default:
                    return Math.addExact(Math.multiplyExact(millis, NANOS_PER_MILLI), nanoOfMilli);
            }
        } catch (ArithmeticException e) {
            throw new JsonReadException(path, "timestamp '" + t(epochDay, nanoOfDay)
                    + "' is out of range of Arrow " + unit + " timestamps (64-bit)");
        }
    }

    private static String t(long epochDay, long nanoOfDay) {
        return java.time.LocalDateTime.of(java.time.LocalDate.ofEpochDay(epochDay),
                java.time.LocalTime.ofNanoOfDay(nanoOfDay)).toString();
    }

    @Override
    void appendNull() {
        vector.setNull(count++);
    }

    @Override
    void truncate(int entries) {
        count = entries;
    }
}
