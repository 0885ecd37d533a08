package io.columnarkafka.flink.calc.eval;

import java.math.BigInteger;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * A constant. Its column holds the value at every row position it has room for, written when a batch first needs
 * more rows than that (so once, for batches of one size): readers find it there, and no batch writes it again.
 */
final class LiteralNode extends Node {
    private final boolean isNull;
    private final long longValue;
    private final long highValue;
    private final int nanoValue;
    private final double doubleValue;
    private final byte[] stringValue;
    /** Row positions of {@link #out} that hold the value: every one from the first {@link #compute} on. */
    private int filled;

    LiteralNode(Object value, LogicalType type) {
        super(type);
        isNull = value == null;
        long l = 0;
        long h = 0;
        int nano = 0;
        double d = 0;
        byte[] s = null;
        if (value instanceof Boolean b) {
            l = b ? 1 : 0;
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            l = ((Number) value).longValue();
            h = l >> 63;
        } else if (value instanceof Double v) {
            d = v;
        } else if (value instanceof DecimalData v) {
            BigInteger unscaled = v.toBigDecimal().unscaledValue();
            l = unscaled.longValue();
            h = unscaled.shiftRight(64).longValue();
        } else if (value instanceof StringData v) {
            s = v.toBytes();
        } else if (value instanceof TimestampData v) {
            l = v.getMillisecond();
            nano = v.getNanoOfMillisecond();
        } else if (value != null) {
            throw new IllegalArgumentException("not an internal value of " + type.asSummaryString() + ": " + value);
        }
        longValue = l;
        highValue = h;
        nanoValue = nano;
        doubleValue = d;
        stringValue = s;
    }

    boolean isNull() {
        return isNull;
    }

    /** The value of a BOOLEAN, integer or DATE literal; the low word of a DECIMAL's unscaled value. */
    long longValue() {
        return longValue;
    }

    /** The high word of the 128-bit unscaled value of a DECIMAL or integer literal (an integer's sign). */
    long highValue() {
        return highValue;
    }

    /** True when {@code value} is null or a value of {@code type} in Flink's internal format. */
    static boolean holds(Object value, LogicalType type) {
        if (value == null) {
            return true;
        }
        switch (Repr.of(type)) {
            case LONG:
                return type.getTypeRoot() == LogicalTypeRoot.BOOLEAN
                        ? value instanceof Boolean
                        : value instanceof Byte || value instanceof Short || value instanceof Integer
                                || value instanceof Long;
            case DOUBLE:
                return value instanceof Double;
            case DECIMAL:
                return value instanceof DecimalData d
                        && d.scale() == ((DecimalType) type).getScale();
            case STRING:
                return value instanceof StringData;
            case TIMESTAMP:
                return value instanceof TimestampData;
            default:
                return false;
        }
    }

    @Override
    boolean holdsBatch(InputBatch batch) {
        return filled >= batch.rowCount();
    }

    /** Writes the value at every row position of the column (sized for the batch), not only the selected ones. */
    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        Column c = out;
        int start = 0;
        if (stringValue != null) {
            start = c.reserve(stringValue.length);
            System.arraycopy(stringValue, 0, c.bytes, start, stringValue.length);
            c.used = start + stringValue.length;
        }
        int rows = c.nulls.length;
        for (int i = 0; i < rows; i++) {
            c.nulls[i] = isNull;
            switch (c.repr) {
                case LONG:
                    c.longs[i] = longValue;
                    break;
                case DOUBLE:
                    c.doubles[i] = doubleValue;
                    break;
                case DECIMAL:
                    c.longs[i] = longValue;
                    c.highs[i] = highValue;
                    break;
                case STRING:
                    c.starts[i] = start;
                    c.lengths[i] = isNull ? 0 : stringValue.length;
                    break;
                case TIMESTAMP:
                    c.longs[i] = longValue;
                    c.nanos[i] = nanoValue;
                    break;
                default:
                    throw new IllegalStateException(c.repr.name());
            }
        }
        filled = rows;
    }
}
