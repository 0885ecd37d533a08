package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.FlinkCodeSites;
import org.apache.flink.api.common.functions.DefaultOpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.functions.util.FunctionUtils;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.generated.GeneratedFunction;

/**
 * Flink's generated class of a Calc's calls ({@link FlinkCodeSites}), compiled and opened once per plan and shared by
 * the {@link FlinkCodeCall} node of each of its calls, so each function has one instance, opened once, that every
 * call of it uses, as in Flink's Calc. {@link #open} compiles it with the user code class loader and opens it with
 * the operator's runtime context (its {@code open} opens the functions with a {@code FunctionContext} of it, as
 * Flink's Calc operator does); {@link #close} closes it.
 */
final class FlinkCodeInstance implements AutoCloseable {
    private final GeneratedFunction<FlinkCodeSites> code;
    /** Null until {@link #open}, and again after {@link #close}. */
    private FlinkCodeSites sites;

    FlinkCodeInstance(GeneratedFunction<FlinkCodeSites> code) {
        this.code = code;
    }

    /** Whether this is the instance of {@code generated} (the one object every call of a Calc shares). */
    boolean of(GeneratedFunction<FlinkCodeSites> generated) {
        return code == generated;
    }

    void open(RuntimeContext context) throws Exception {
        FlinkCodeSites compiled = code.newInstance(context.getUserCodeClassLoader());
        FunctionUtils.setFunctionRuntimeContext(compiled, context);
        sites = compiled;
        FunctionUtils.openFunction(compiled, DefaultOpenContext.INSTANCE);
    }

    /** Closes the class if it was opened; idempotent. */
    @Override
    public void close() throws Exception {
        FlinkCodeSites toClose = sites;
        sites = null;
        if (toClose != null) {
            FunctionUtils.closeFunction(toClose);
        }
    }

    /** Whether {@link #open} opened it and {@link #close} has not closed it. */
    boolean isOpen() {
        return sites != null;
    }

    /** The one-field result row of call {@code site} for {@code arguments}; see {@link FlinkCodeSites#call}. */
    RowData call(int site, RowData arguments) throws Exception {
        return sites.call(site, arguments);
    }
}
