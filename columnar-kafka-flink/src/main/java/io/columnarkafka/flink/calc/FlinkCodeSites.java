package io.columnarkafka.flink.calc;

import org.apache.flink.api.common.functions.Function;
import org.apache.flink.table.data.RowData;

/**
 * The class Flink's code generator makes for the calls of user-defined functions of one Calc that the columnar calc
 * runs ({@link Expr.FlinkCode}): Flink's own code for each call, one entry point ({@code site}) per call, all in one
 * class, so it holds one instance of each function, opened once, which every call of that function uses, as
 * Flink's generated Calc does. The generated class is a rich function: {@code open} opens the functions with a
 * {@code FunctionContext} of its runtime context, {@code close} closes them.
 */
public interface FlinkCodeSites extends Function {
    /**
     * The value of call {@code site} for the argument values in {@code arguments}, as a one-field row (reused by the
     * next call of the site).
     */
    RowData call(int site, RowData arguments) throws Exception;
}
