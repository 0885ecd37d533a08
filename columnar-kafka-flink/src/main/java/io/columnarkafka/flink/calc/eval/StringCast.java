package io.columnarkafka.flink.calc.eval;

import java.math.BigInteger;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.binary.BinaryStringDataUtil;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * CAST from CHAR/VARCHAR, as the code Flink 2.2's cast rules generate: the row's bytes are handed to
 * Flink's own parsers ({@code BinaryStringDataUtil}) as a {@link BinaryStringData} over the column's bytes
 * (one small object per row, as the generated code has its row's string): integers and DOUBLE parse the trimmed string
 * ({@code StringToNumericPrimitiveCastRule}), DECIMAL, BOOLEAN and TIMESTAMP the string as is (their parsers
 * trim). A string that does not parse, or a DECIMAL that needs more digits than the target precision
 * ("Overflow"), fails the batch, as Flink's CAST fails the job ({@code table.exec.legacy-cast-behaviour} is off by default;
 * TRY_CAST is not translated): the error names the value and the parser's reason.
 */
final class StringCast extends UnaryNode {
    enum Target { TINYINT, SMALLINT, INTEGER, BIGINT, DOUBLE, DECIMAL, BOOLEAN, TIMESTAMP }

    private final Target target;
    private final int precision;
    private final int scale;
    private byte[] wrapped;
    private MemorySegment[] segments;

    StringCast(Target target, Node operand, LogicalType type) {
        super(operand, type);
        this.target = target;
        this.precision = type instanceof DecimalType d ? d.getPrecision()
                : type instanceof TimestampType t ? t.getPrecision() : 0;
        this.scale = type instanceof DecimalType d ? d.getScale() : 0;
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        if (in.bytes != wrapped) {
            wrapped = in.bytes;
            segments = new MemorySegment[] {MemorySegmentFactory.wrap(wrapped)};
        }
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            if (in.nulls[i]) {
                out.nulls[i] = true;
                continue;
            }
            BinaryStringData value = BinaryStringData.fromAddress(segments, in.starts[i], in.lengths[i]);
            try {
                parse(value, i);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("CAST of '" + value + "' to " + Types.name(type) + " failed, as in"
                        + " Flink: " + e, e);
            }
        }
    }

    private void parse(BinaryStringData view, int i) {
        out.nulls[i] = false;
        switch (target) {
            case TINYINT:
                out.longs[i] = BinaryStringDataUtil.toByte(view.trim());
                break;
            case SMALLINT:
                out.longs[i] = BinaryStringDataUtil.toShort(view.trim());
                break;
            case INTEGER:
                out.longs[i] = BinaryStringDataUtil.toInt(view.trim());
                break;
            case BIGINT:
                out.longs[i] = BinaryStringDataUtil.toLong(view.trim());
                break;
            case DOUBLE:
                out.doubles[i] = BinaryStringDataUtil.toDouble(view.trim());
                break;
            case BOOLEAN:
                out.longs[i] = BinaryStringDataUtil.toBoolean(view) ? 1 : 0;
                break;
            case DECIMAL:
                DecimalData d = BinaryStringDataUtil.toDecimal(view, precision, scale);
                if (d == null) {
                    out.nulls[i] = true;
                } else if (d.isCompact()) {
                    out.longs[i] = d.toUnscaledLong();
                    out.highs[i] = out.longs[i] >> 63;
                } else {
                    BigInteger unscaled = d.toBigDecimal().unscaledValue();
                    out.longs[i] = unscaled.longValue();
                    out.highs[i] = unscaled.shiftRight(64).longValue();
                }
                break;
            case TIMESTAMP:
                TimestampData t = BinaryStringDataUtil.toTimestamp(view, precision);
                if (t == null) {
                    out.nulls[i] = true;
                } else {
                    out.longs[i] = t.getMillisecond();
                    out.nanos[i] = t.getNanoOfMillisecond();
                }
                break;
            default:
                throw new IllegalStateException(target.name());
        }
    }
}
