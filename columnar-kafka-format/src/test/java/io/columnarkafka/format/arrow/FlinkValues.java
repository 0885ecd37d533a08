package io.columnarkafka.format.arrow;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/** Short constructors of Flink internal data for tests. */
public final class FlinkValues {
    private FlinkValues() {}

    public static GenericRowData row(Object... fields) {
        return GenericRowData.of(fields);
    }

    public static StringData str(String s) {
        return StringData.fromString(s);
    }

    public static byte[] bytes(String utf8) {
        return utf8.getBytes(StandardCharsets.UTF_8);
    }

    public static DecimalData dec(String value, int precision, int scale) {
        DecimalData d = DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
        if (d == null) {
            throw new IllegalArgumentException(value + " does not fit DECIMAL(" + precision + "," + scale + ")");
        }
        return d;
    }

    public static int date(String isoDate) {
        return (int) LocalDate.parse(isoDate).toEpochDay();
    }

    public static int time(String isoTime) {
        return (int) (LocalTime.parse(isoTime).toNanoOfDay() / 1_000_000L);
    }

    /** TIMESTAMP from an ISO local date-time, e.g. {@code 1969-12-31T23:59:59.999999999}. */
    public static TimestampData ts(String isoLocalDateTime) {
        return TimestampData.fromLocalDateTime(LocalDateTime.parse(isoLocalDateTime));
    }

    /** TIMESTAMP_LTZ from an ISO instant, e.g. {@code 2020-01-02T03:04:05.123456Z}. */
    public static TimestampData ltz(String isoInstant) {
        return TimestampData.fromInstant(Instant.parse(isoInstant));
    }

    public static GenericArrayData array(Object... elements) {
        return new GenericArrayData(elements);
    }

    /** A map in the given key order; keys and values alternate, a key may be null. */
    public static GenericMapData map(Object... keysAndValues) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new GenericMapData(map);
    }
}
