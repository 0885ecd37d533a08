package io.columnarkafka.flink.calc;

import io.columnarkafka.format.RowTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Seeded random rows of strings that Flink's CAST parses (a fifth null): one column per target, each in the
 * spellings Flink accepts (surrounding spaces where Flink trims, signs, leading zeros, exponents, extreme values). Strings that do not parse are tested on their own, as they fail the job.
 */
final class StringCastValues {
    static final RowType INPUT = RowTypes.parse("ROW<id INT NOT NULL, i8 STRING, i32 STRING, i64 STRING,"
            + " dbl STRING, dm STRING, flag STRING, ts STRING>");

    private static final String[] BOOLEANS = {"true", "false", "TRUE", "False", "t", "f", "T", "F", "1", "0",
        "yes", "no", "YES", "y", "n", "N"};
    private static final String[] DOUBLES = {"NaN", "Infinity", "-Infinity", "1e308", "4.9E-324", "-0.0", "0",
        " 12.5 ", "+3", "1E3", ".5", "5.", "1.7976931348623157E308", "00012.250"};
    private static final String[] TIMESTAMPS = {"1970-01-01 00:00:00", "1969-12-31 23:59:59.999",
        "2020-02-29 12:34:56.123456789", "9999-12-31 23:59:59.999999999", "0001-01-01 00:00:00", "2024-06-01",
        "2024-06-01 07:08:09.1", "1900-01-01 00:00:00.000001"};

    private final Random random;

    StringCastValues(long seed) {
        this.random = new Random(seed);
    }

    List<RowData> rows(int count) {
        List<RowData> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            GenericRowData row = new GenericRowData(INPUT.getFieldCount());
            row.setField(0, r);
            row.setField(1, maybe(integer(random.nextInt(256) - 128)));
            row.setField(2, maybe(integer(random.nextInt(4) == 0
                    ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt())));
            row.setField(3, maybe(integer(random.nextInt(4) == 0
                    ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : random.nextLong())));
            row.setField(4, maybe(random.nextInt(3) == 0 ? pick(DOUBLES)
                    : Double.toString(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20))));
            row.setField(5, maybe(decimal()));
            row.setField(6, maybe(pick(BOOLEANS)));
            row.setField(7, maybe(random.nextInt(3) == 0 ? pick(TIMESTAMPS) : timestamp()));
            rows.add(row);
        }
        return rows;
    }

    private StringData maybe(String s) {
        return random.nextInt(5) == 0 ? null : StringData.fromString(s);
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    /** An integer with optional surrounding spaces, a '+' sign or leading zeros. */
    private String integer(long v) {
        String digits = Long.toString(Math.abs(v));
        if (v == Long.MIN_VALUE) {
            digits = digits.substring(1);
        }
        String sign = v < 0 ? "-" : random.nextInt(4) == 0 ? "+" : "";
        // Flink's DECIMAL parser counts leading zeros as digits: " 002147483647 " overflows DECIMAL(12, 1)
        String zeros = Math.abs(v) < 1_000_000 && random.nextInt(5) == 0 ? "00" : "";
        String pad = random.nextInt(5) == 0 ? " " : "";
        return pad + sign + zeros + digits + pad;
    }

    /**
     * Up to 20 digits, at most 8 before the point (more fails DECIMAL(10, 2) in Flink: "Overflow"), scale up
     * to 12 (DECIMAL(10, 2) rounds), sometimes an exponent.
     */
    private String decimal() {
        int digits = 1 + random.nextInt(20);
        BigInteger unscaled = new BigInteger(BigInteger.TEN.pow(digits).bitLength(), random).mod(BigInteger.TEN.pow(digits));
        int scale = Math.max(random.nextInt(13), digits - 8);
        BigDecimal value = new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), scale);
        switch (random.nextInt(4)) {
            case 0:
                return value.toString(); // may use an exponent
            case 1:
                return " " + value.toPlainString() + " ";
            default:
                return value.toPlainString();
        }
    }

    private String timestamp() {
        long seconds = -62_135_596_800L + Math.floorMod(random.nextLong(), 315_537_897_600L); // years 1..9999
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(seconds, random.nextInt(1_000_000_000),
                java.time.ZoneOffset.UTC);
        String text = t.toString().replace('T', ' ');
        return text.length() == 16 ? text + ":00" : text; // LocalDateTime omits zero seconds
    }
}
