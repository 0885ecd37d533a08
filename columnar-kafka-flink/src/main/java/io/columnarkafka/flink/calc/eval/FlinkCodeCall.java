package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * A call Flink's own generated code evaluates ({@link Expr.FlinkCode}, a user-defined scalar function): its arguments
 * are evaluated on the vectors for the rows asked for, then Flink's function is called once for each of those rows,
 * in row order, on a {@link ColumnsRow} of the argument values, and the value in its one-field result row is kept in
 * {@link #out}. Flink's generated Calc calls the function once for each row that passed its condition (and, inside a
 * CASE branch, took the branch), in row order; the plan asks this node for exactly those rows (AND, OR and CASE
 * narrow the selection), so the function sees the same calls in the same order. The node is never shared between
 * readers (a call is equal only to itself): it runs once per row it is asked for.
 *
 * <p>The call is entry point {@code site} of Flink's generated class of the Calc's calls, which the plan opens once
 * ({@link FlinkCodeInstance}) for all of them: two calls of one function use its one instance, as in Flink's Calc.
 */
final class FlinkCodeCall extends Node {
    private final Expr.FlinkCode call;
    private final Node[] arguments;
    private final ColumnsRow row;
    private final LogicalTypeRoot resultRoot;
    private final FlinkCodeInstance code;

    FlinkCodeCall(Expr.FlinkCode call, FlinkCodeInstance code, Node[] arguments) {
        super(call.type());
        this.call = call;
        this.code = code;
        this.arguments = arguments;
        Column[] columns = new Column[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            columns[i] = arguments[i].out;
        }
        this.row = new ColumnsRow(columns);
        this.resultRoot = call.type().getTypeRoot();
    }

    /** What the call is, for errors. */
    String name() {
        return call.name();
    }

    @Override
    void compute(InputBatch batch, int[] sel, int n) {
        if (!code.isOpen()) {
            throw new IllegalStateException(call.name() + " runs Flink's generated code, which is not open: the calc"
                    + " was planned without a runtime context, or is closed");
        }
        for (Node argument : arguments) {
            argument.evaluate(batch, sel, n);
        }
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            row.at(i);
            RowData result;
            try {
                result = code.call(call.site(), row);
            } catch (Exception e) {
                throw new FlinkCodeException(call.name() + " failed in Flink's generated code at row " + i
                        + " of the batch: " + e, e);
            }
            keep(result, i);
        }
    }

    /** The value of the function's one-field result row, as the call's type holds it. */
    private void keep(RowData result, int i) {
        if (result.isNullAt(0)) {
            out.nulls[i] = true;
            return;
        }
        out.nulls[i] = false;
        switch (resultRoot) {
            case BOOLEAN:
                out.longs[i] = result.getBoolean(0) ? 1 : 0;
                break;
            case TINYINT:
                out.longs[i] = result.getByte(0);
                break;
            case SMALLINT:
                out.longs[i] = result.getShort(0);
                break;
            case INTEGER:
            case DATE:
                out.longs[i] = result.getInt(0);
                break;
            case BIGINT:
                out.longs[i] = result.getLong(0);
                break;
            case DOUBLE:
                out.doubles[i] = result.getDouble(0);
                break;
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                Decimal128.put(result.getDecimal(0, decimal.getPrecision(), decimal.getScale()),
                        decimal.getPrecision(), decimal.getScale(), out, i);
                break;
            case CHAR:
            case VARCHAR:
                keepString(result.getString(0), i);
                break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                TimestampData timestamp = result.getTimestamp(0, ((TimestampType) type).getPrecision());
                out.longs[i] = timestamp.getMillisecond();
                out.nanos[i] = timestamp.getNanoOfMillisecond();
                break;
            default:
                throw new IllegalStateException("no result of type " + Types.name(type) + " is admitted");
        }
    }

    /** The string's UTF-8 bytes, copied from its memory segments (a string Flink built from Java is encoded first). */
    private void keepString(StringData value, int i) {
        BinaryStringData string = (BinaryStringData) value;
        string.ensureMaterialized();
        int length = string.getSizeInBytes();
        int at = out.reserve(length);
        BinarySegmentUtils.copyToBytes(string.getSegments(), string.getOffset(), out.bytes, at, length);
        out.setString(i, at, length);
    }
}
