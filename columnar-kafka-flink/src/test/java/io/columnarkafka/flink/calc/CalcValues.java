package io.columnarkafka.flink.calc;

import io.columnarkafka.format.parity.EdgeValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Seeded random rows for the calc's parity tests: a fifth null, a third the edge values of {@link
 * EdgeValues} (min/max integers, NaN, ±Inf, -0.0, full-precision decimals, empty and non-BMP strings,
 * timestamps before 1970 and in year 9999 with nanos), the rest ordinary values, including Nexmark-like
 * URLs and strings made of the characters the string functions treat specially.
 */
final class CalcValues {
    private static final String[] PIECES = {"a", "A", "b", "B", "z", ",", "/", "&", "=", "%", "_", " ", "\u00e9",
        "\u00c9", "\u0130", "\u03a3", "\uD83D\uDE00", "channel_id", "apple", "Google", "\u00df"};

    private static final long YEAR_1 = -62_135_596_800_000L;
    private static final long YEAR_10000 = 253_402_300_800_000L;

    private final Random random;

    CalcValues(long seed) {
        this.random = new Random(seed);
    }

    List<RowData> rows(RowType type, int count) {
        List<RowData> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int c = 0; c < type.getFieldCount(); c++) {
                row.setField(c, c == 0 ? (Object) r : value(type.getTypeAt(c)));
            }
            rows.add(row);
        }
        return rows;
    }

    Object value(LogicalType type) {
        if (type.isNullable() && random.nextInt(5) == 0) {
            return null;
        }
        if (type instanceof RowType row) {
            GenericRowData nested = new GenericRowData(row.getFieldCount());
            for (int c = 0; c < row.getFieldCount(); c++) {
                nested.setField(c, value(row.getTypeAt(c)));
            }
            return nested;
        }
        if (random.nextInt(3) == 0) {
            List<Object> edges = EdgeValues.of(type);
            return edges.get(random.nextInt(edges.size()));
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) random.nextInt();
            case SMALLINT:
                return (short) (random.nextInt(2001) - 1000);
            case INTEGER:
                return random.nextBoolean() ? random.nextInt(2001) - 1000 : random.nextInt();
            case BIGINT:
                return random.nextBoolean() ? (long) random.nextInt(20_000_001) - 10_000_000 : random.nextLong();
            case DOUBLE:
                return random.nextBoolean() ? random.nextGaussian() * 1000 : (double) (random.nextInt(201) - 100);
            case DECIMAL:
                DecimalType d = (DecimalType) type;
                int digits = 1 + random.nextInt(d.getPrecision());
                BigInteger unscaled = new BigInteger(BigInteger.TEN.pow(digits).bitLength(), random)
                        .mod(BigInteger.TEN.pow(digits));
                BigDecimal value = new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), d.getScale());
                return DecimalData.fromBigDecimal(value, d.getPrecision(), d.getScale());
            case CHAR:
            case VARCHAR:
                return StringData.fromString(random.nextInt(4) == 0 ? url() : pieces());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                int precision = ((TimestampType) type).getPrecision();
                long millis = random.nextBoolean()
                        ? YEAR_1 + Math.floorMod(random.nextLong(), YEAR_10000 - YEAR_1) // year 1 .. 9999
                        : 1_600_000_000_000L + random.nextInt(1_000_000_000);
                int nanos = precision <= 3 ? 0 : (int) (random.nextInt(1_000_000) / (long) Math.pow(10, 9 - precision)
                        * (long) Math.pow(10, 9 - precision));
                return TimestampData.fromEpochMillis(precision == 0 ? millis - Math.floorMod(millis, 1000L) : millis, nanos);
            default:
                throw new IllegalArgumentException(type.asSummaryString());
        }
    }

    private String pieces() {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return s.toString();
    }

    private String url() {
        StringBuilder s = new StringBuilder("https://www.nexmark.com/");
        for (int i = random.nextInt(5); i > 0; i--) {
            s.append(pieces().replace("/", "")).append('/');
        }
        s.append("item.htm?query=1");
        if (random.nextBoolean()) {
            s.append(random.nextBoolean() ? "&" : "").append("channel_id=").append(random.nextInt(1000));
        }
        return s.toString();
    }
}
