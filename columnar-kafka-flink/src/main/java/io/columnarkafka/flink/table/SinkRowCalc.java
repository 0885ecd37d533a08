package io.columnarkafka.flink.table;

import java.io.Serializable;
import org.apache.flink.api.common.functions.DefaultOpenContext;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.functions.util.FunctionUtils;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.generated.GeneratedFunction;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * Flink's Calc in front of a row sink, run by the encode operator on the row it is handed: the class Flink's code
 * generator makes for the Calc's projection and condition (the planner stage generates it as {@code
 * CalcCodeGenerator.generateFunction} does, with the stream Calc's row kind kept, {@code StreamExecCalc}'s {@code
 * retainHeader}), compiled with the user code class loader and opened with the operator's runtime context, as
 * Flink's generated Calc operator opens its functions with its own; closed with the operator.
 *
 * <p>The generated code emits at most one row per call, and may emit the same row object on every call (its
 * output row is a member it refills): see {@link #apply}.
 */
public final class SinkRowCalc implements Serializable {
    private static final long serialVersionUID = 1L;

    private final GeneratedFunction<FlatMapFunction<RowData, RowData>> code;
    private final RowType outputType;
    private final String name;

    private transient FlatMapFunction<RowData, RowData> function;
    private transient LastRow emitted;

    /**
     * @param code Flink's generated Calc function
     * @param outputType the Calc's output row type, the rows the sink consumes
     * @param name Flink's description of the Calc ({@code Calc(select=[...], where=[...])})
     */
    public SinkRowCalc(GeneratedFunction<FlatMapFunction<RowData, RowData>> code, RowType outputType, String name) {
        this.code = code;
        this.outputType = outputType;
        this.name = name;
    }

    void open(RuntimeContext context) throws Exception {
        FlatMapFunction<RowData, RowData> compiled = code.newInstance(context.getUserCodeClassLoader());
        FunctionUtils.setFunctionRuntimeContext(compiled, context);
        function = compiled;
        emitted = new LastRow();
        FunctionUtils.openFunction(compiled, DefaultOpenContext.INSTANCE);
    }

    /**
     * The Calc's row for {@code row} (its kind {@code row}'s), or null where its condition drops it. The result may be
     * the object of the previous call, refilled: valid until the next call only.
     */
    RowData apply(RowData row) throws Exception {
        emitted.row = null;
        function.flatMap(row, emitted);
        return emitted.row;
    }

    /** Closes the function if it was opened; idempotent. */
    void close() throws Exception {
        FlatMapFunction<RowData, RowData> toClose = function;
        function = null;
        if (toClose != null) {
            FunctionUtils.closeFunction(toClose);
        }
    }

    RowType outputType() {
        return outputType;
    }

    String describe() {
        return name;
    }

    /** The row the Calc emitted for the current input, if any. */
    private static final class LastRow implements Collector<RowData> {
        private RowData row;

        @Override
        public void collect(RowData record) {
            row = record;
        }

        @Override
        public void close() {}
    }
}
