package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.LogicalType;

/**
 * EXTRACT(HOUR | MINUTE | SECOND FROM timestamp) (and HOUR(ts)) as Flink's generated code computes it:
 * {@code (millis % period) / unit} with Java's truncating {@code %} and {@code /} on the epoch
 * milliseconds, so a timestamp before 1970 gives a negative or zero field, exactly as Flink does.
 */
final class ExtractTimeField extends UnaryNode {
    private final long period;
    private final long unit;

    ExtractTimeField(Node operand, long period, long unit, LogicalType type) {
        super(operand, type);
        this.period = period;
        this.unit = unit;
    }

    /** Period and unit in milliseconds of a time-of-day field, or null when the unit is not one. */
    static long[] periodAndUnit(String unitName) {
        switch (unitName) {
            case "HOUR":
                return new long[] {86_400_000L, 3_600_000L};
            case "MINUTE":
                return new long[] {3_600_000L, 60_000L};
            case "SECOND":
                return new long[] {60_000L, 1_000L};
            default:
                return null;
        }
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            out.longs[i] = (in.longs[i] % period) / unit;
        }
    }
}
