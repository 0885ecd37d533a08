package io.columnarkafka.flink.calc;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.eval.CalcPlan;
import io.columnarkafka.flink.calc.eval.FlinkCodeException;
import io.columnarkafka.flink.calc.eval.UnsupportedExpressionException;
import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * A {@link CalcProgram} evaluated on Arrow vectors: planned once per task, then one {@link #apply} per
 * batch. The condition becomes a selection on the output batch (no vector is copied for it); projections
 * that are input columns share the input's buffers; computed projections are evaluated for the selected
 * rows only, as Flink's generated code evaluates them only for rows that passed the filter.
 *
 * <p><b>Memory.</b> Computed vectors and opened wire batches live in the allocator given to {@link #plan};
 * an output batch that shares input buffers owns its input batch and frees it when it is closed.
 */
public final class ColumnarCalc implements AutoCloseable {
    private final CalcProgram program;
    private final CalcPlan plan;
    private final BufferAllocator allocator;
    private final Schema outputSchema;
    private final boolean sharesInput;

    private ColumnarCalc(CalcProgram program, CalcPlan plan, BufferAllocator allocator) {
        this.program = program;
        this.plan = plan;
        this.allocator = allocator;
        this.outputSchema = ArrowLayout.schema(program.outputType());
        this.sharesInput = program.projections().stream()
                .anyMatch(e -> e instanceof Expr.Column || e instanceof Expr.Field);
    }

    /**
     * Plans {@code program}; computed vectors are allocated from {@code allocator} (which the caller
     * owns), and wire-form input batches are opened into it.
     *
     * @throws IllegalArgumentException if {@link CalcSupport#unsupported} gives a reason for the program
     */
    public static ColumnarCalc plan(CalcProgram program, BufferAllocator allocator) {
        return plan(program, allocator, null);
    }

    /**
     * Plans {@code program} as {@link #plan(CalcProgram, BufferAllocator)} does, and compiles and opens Flink's
     * generated code of its {@link Expr.FlinkCode} calls on {@code context} (the operator's runtime context; null
     * when the program has none). {@link #close} closes them.
     *
     * @throws IllegalArgumentException if {@link CalcSupport#unsupported} gives a reason for the program, or it has
     *     such calls and {@code context} is null
     * @throws IllegalStateException if Flink's generated code does not compile or its {@code open} fails (the
     *     user-defined function's {@code open} among it), with that as the cause
     */
    public static ColumnarCalc plan(CalcProgram program, BufferAllocator allocator, RuntimeContext context) {
        CalcPlan plan;
        try {
            plan = CalcPlan.compile(program);
        } catch (UnsupportedExpressionException e) {
            throw new IllegalArgumentException("the columnar calc cannot evaluate this program: " + e.getMessage(), e);
        }
        if (!plan.flinkCodeCalls().isEmpty()) {
            if (context == null) {
                throw new IllegalArgumentException("the program runs Flink's generated code (" + String.join(", ",
                        plan.flinkCodeCalls()) + "), which needs the operator's runtime context to open");
            }
            try {
                plan.open(context);
            } catch (Exception e) {
                throw new IllegalStateException("opening Flink's generated code of " + String.join(", ",
                        plan.flinkCodeCalls()) + " in the columnar calc failed: " + e.getMessage(), e);
            }
        }
        return new ColumnarCalc(program, plan, allocator);
    }

    /**
     * Consumes {@code input} (closes it, or makes it the owner of the result, also when evaluation fails)
     * and returns the output batch, whose rows are the input's selected rows that pass the condition.
     *
     * @throws BatchLayoutException if the batch does not carry the program's input row type
     * @throws ArithmeticException where Flink's generated code throws one (integer or DECIMAL division by
     *     zero), naming the projection
     * @throws IllegalArgumentException where a CAST from a string does not parse (Flink's CAST fails the job),
     *     naming the projection and the value
     * @throws FlinkCodeException where Flink's generated code of a call throws (a user-defined function's own
     *     exception, the cause), naming the condition or projection, the call and the row
     */
    public ArrowBatch apply(ArrowBatch input) {
        List<FieldVector> vectors = new ArrayList<>(outputSchema.getFields().size());
        try {
            VectorSchemaRoot root = input.open(allocator);
            ArrowLayout.check(program.input(), root);
            int[] selection = input.selection();
            int[] passed = filter(root, selection, selection == null ? root.getRowCount()
                    : input.selectedCount(allocator));
            int count = plan.passedCount();
            List<Field> fields = outputSchema.getFields();
            for (int p = 0; p < fields.size(); p++) {
                vectors.add(project(p, fields.get(p).getName()));
            }
            // each vector's own field: a shared column keeps the Arrow type it came in (e.g. LargeUtf8)
            List<Field> actual = new ArrayList<>(vectors.size());
            for (FieldVector vector : vectors) {
                actual.add(vector.getField());
            }
            VectorSchemaRoot out = new VectorSchemaRoot(actual, vectors, root.getRowCount());
            AutoCloseable owner = input;
            if (!sharesInput) {
                input.close();
                owner = null;
            }
            return count == root.getRowCount()
                    ? ArrowBatch.of(out, owner)
                    : ArrowBatch.of(out, owner, Arrays.copyOf(passed, count), count);
        } catch (RuntimeException | Error e) {
            try {
                AutoCloseables.close(vectors);
                input.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private int[] filter(VectorSchemaRoot root, int[] selection, int count) {
        try {
            return plan.filter(root, selection, count);
        } catch (FlinkCodeException e) {
            throw new FlinkCodeException("the condition of the columnar calc: " + e.getMessage(), e.getCause());
        } catch (ArithmeticException e) {
            throw named("the condition", e);
        } catch (IllegalArgumentException e) {
            throw named("the condition", e);
        }
    }

    private FieldVector project(int p, String name) {
        try {
            return plan.project(p, name, allocator);
        } catch (FlinkCodeException e) {
            throw new FlinkCodeException("projection " + p + " (" + name + ") of the columnar calc: " + e.getMessage(),
                    e.getCause());
        } catch (ArithmeticException e) {
            throw named("projection " + p + " (" + name + ")", e);
        } catch (IllegalArgumentException e) {
            throw named("projection " + p + " (" + name + ")", e);
        }
    }

    /** A CAST from a string that does not parse (Flink's CAST fails the job there). */
    private static IllegalArgumentException named(String part, IllegalArgumentException e) {
        return new IllegalArgumentException(part + " of the columnar calc: " + e.getMessage(), e);
    }

    private static ArithmeticException named(String part, ArithmeticException e) {
        ArithmeticException named = new ArithmeticException(part + " of the columnar calc: " + e.getMessage());
        named.initCause(e);
        return named;
    }

    /** The program this calc evaluates. */
    public CalcProgram program() {
        return program;
    }

    /**
     * Closes Flink's generated code the plan runs (the user-defined functions' {@code close}); nothing else to free:
     * the plan holds heap arrays only, and the allocator is the caller's.
     *
     * @throws IllegalStateException if a function's {@code close} fails, with that as the cause
     */
    @Override
    public void close() {
        try {
            plan.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing Flink's generated code of " + String.join(", ",
                    plan.flinkCodeCalls()) + " in the columnar calc failed: " + e.getMessage(), e);
        }
    }
}
