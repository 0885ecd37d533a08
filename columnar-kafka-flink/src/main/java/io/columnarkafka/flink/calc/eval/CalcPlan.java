package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * A compiled {@link CalcProgram}: nodes for the condition and each computed projection, built once; then
 * per batch {@link #filter} and {@link #project}. A projection is compiled without the CASE branches that no row
 * passing the condition takes ({@link ConditionFacts}). Projections that are input columns (or nested fields
 * whose enclosing rows are not null in any row that passed) share the input's buffers (reference counted),
 * with no copy, and read no value.
 *
 * <p>Input values are read ({@link ColumnLoad}) only where a node needs them: the condition's columns for the
 * input selection before the condition runs, a computed projection's columns for the rows that passed before
 * it runs. Every later reader of a load asks for a subset of those rows, so a load read once serves them all.
 * Equal calls in the condition and the projections are one node, which computes each row once per batch, for the
 * rows its readers ask for ({@link HeldRows}).
 */
public final class CalcPlan {
    private final CalcProgram program;
    /** The loads the condition reads. */
    private final List<ColumnLoad> conditionLoads;
    private final Node condition;
    /** Per projection: the node, or null for an input column shared as is. */
    private final Node[] computed;
    /** Per projection: the loads its node reads (empty for a shared input column). */
    private final List<List<ColumnLoad>> projectionLoads;
    private final int[] sharedColumn;
    /** The calls that run Flink's generated code. */
    private final List<FlinkCodeCall> flinkCode;
    /** Their generated classes, each once, opened by {@link #open} and closed by {@link #close}. */
    private final List<FlinkCodeInstance> flinkCodeInstances;
    private final InputBatch batch = new InputBatch();
    private final Selection input = new Selection();
    private final Selection passed = new Selection();
    private final ValidityBits parentValidity = new ValidityBits();

    private CalcPlan(CalcProgram program, List<ColumnLoad> conditionLoads, Node condition, Node[] computed,
                     List<List<ColumnLoad>> projectionLoads, int[] sharedColumn, List<FlinkCodeCall> flinkCode,
                     List<FlinkCodeInstance> flinkCodeInstances) {
        this.program = program;
        this.conditionLoads = conditionLoads;
        this.condition = condition;
        this.computed = computed;
        this.projectionLoads = projectionLoads;
        this.sharedColumn = sharedColumn;
        this.flinkCode = flinkCode;
        this.flinkCodeInstances = flinkCodeInstances;
    }

    /** Compiles {@code program}, or says what in it the calc does not evaluate exactly. */
    public static CalcPlan compile(CalcProgram program) throws UnsupportedExpressionException {
        return compile(program, new Compiler(program.input()));
    }

    /** Compiles {@code program} with {@code compiler}, which then knows the calls the plan shares. */
    static CalcPlan compile(CalcProgram program, Compiler compiler) throws UnsupportedExpressionException {
        Node condition = null;
        List<ColumnLoad> conditionLoads = new ArrayList<>();
        if (program.condition() != null) {
            if (program.condition().type().getTypeRoot() != LogicalTypeRoot.BOOLEAN) {
                throw new UnsupportedExpressionException("the condition is typed "
                        + program.condition().type().asSummaryString() + ", not BOOLEAN");
            }
            condition = compiler.compileReading(program.condition(), conditionLoads);
        }
        int count = program.projections().size();
        Node[] computed = new Node[count];
        List<List<ColumnLoad>> projectionLoads = new ArrayList<>(count);
        int[] shared = new int[count];
        ConditionFacts facts = ConditionFacts.of(program.condition());
        for (int p = 0; p < count; p++) {
            Expr e = facts.simplify(program.projections().get(p));
            shared[p] = -1;
            List<ColumnLoad> reads = new ArrayList<>();
            if (e instanceof Expr.Column c) {
                checkColumn(program, c);
                shared[p] = c.index();
            } else {
                computed[p] = compiler.compileReading(e, reads);
            }
            projectionLoads.add(reads);
        }
        return new CalcPlan(program, conditionLoads, condition, computed, projectionLoads, shared,
                compiler.flinkCodeCalls(), compiler.flinkCodeInstances());
    }

    /** The calls the plan runs Flink's generated code for (none: the plan needs no runtime context). */
    public List<String> flinkCodeCalls() {
        return flinkCode.stream().map(FlinkCodeCall::name).toList();
    }

    /**
     * Compiles and opens Flink's generated code of those calls on {@code context} (the operator's runtime context,
     * as Flink's Calc operator opens its functions), each generated class once; what opened before a failure is
     * closed again.
     */
    public void open(RuntimeContext context) throws Exception {
        try {
            for (FlinkCodeInstance code : flinkCodeInstances) {
                code.open(context);
            }
        } catch (Exception | Error e) {
            try {
                close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Closes Flink's generated code that is open; the first failure is thrown after all is closed. */
    public void close() throws Exception {
        AutoCloseables.close(flinkCodeInstances);
    }

    private static void checkColumn(CalcProgram program, Expr.Column c) throws UnsupportedExpressionException {
        if (c.index() >= program.input().getFieldCount()) {
            throw new UnsupportedExpressionException("column " + c.index() + " does not exist in the input row type "
                    + program.input().asSummaryString());
        }
        LogicalType actual = program.input().getTypeAt(c.index());
        if (!actual.copy(true).equals(c.type().copy(true))) {
            throw new UnsupportedExpressionException("column " + c.index() + " is typed " + c.type().asSummaryString()
                    + " but the input holds " + actual.asSummaryString());
        }
        if (!ArrowLayout.supports(actual)) {
            throw new UnsupportedExpressionException("column " + c.index() + " of type " + actual.asSummaryString()
                    + " has no Arrow layout");
        }
    }

    /**
     * Binds {@code root}, reads the input columns the condition uses for rows {@code selection[0..count)}
     * ({@code selection} null: every row), and evaluates the condition. Returns the rows that passed: an
     * array valid until the next call, holding {@link #passedCount()} rows.
     */
    public int[] filter(VectorSchemaRoot root, int[] selection, int count) {
        batch.bind(root);
        int rows = root.getRowCount();
        if (selection == null) {
            input.reset(rows);
            for (int i = 0; i < rows; i++) {
                input.add(i);
            }
        } else {
            input.reset(count);
            System.arraycopy(selection, 0, input.rows, 0, count);
            input.count = count;
        }
        if (condition == null) {
            return input.rows;
        }
        for (ColumnLoad load : conditionLoads) {
            load.evaluate(batch, input.rows, input.count);
        }
        condition.evaluate(batch, input.rows, input.count);
        passed.reset(input.count);
        boolean[] nulls = condition.out.nulls;
        long[] values = condition.out.longs;
        for (int k = 0; k < input.count; k++) {
            int i = input.rows[k];
            if (!nulls[i] && values[i] != 0) {
                passed.add(i);
            }
        }
        return passed.rows;
    }

    /** Rows that passed the last {@link #filter}. */
    public int passedCount() {
        return condition == null ? input.count : passed.count;
    }

    /**
     * The vector of projection {@code p} for the rows that passed, named {@code name}, in {@code allocator}
     * (a shared input column stays in the input's allocator). The caller owns it.
     */
    public FieldVector project(int p, String name, BufferAllocator allocator) {
        Expr e = program.projections().get(p);
        int[] rows = condition == null ? input.rows : passed.rows;
        int n = passedCount();
        if (sharedColumn[p] >= 0) {
            return share(batch.column(sharedColumn[p]), name);
        }
        Node node = computed[p];
        if (node instanceof ColumnLoad load && !hasNullParents(load, rows, n)) {
            return share(load.vector(batch, null), name);
        }
        for (ColumnLoad load : projectionLoads.get(p)) {
            load.evaluate(batch, rows, n);
        }
        node.evaluate(batch, rows, n);
        // a computed TIMESTAMP keeps every digit Flink's generated code keeps (its row holds the TimestampData)
        FieldVector vector = ArrowLayout.field(name, e.type(), ArrowLayout.NanoTimestamps.EVERY_PRECISION_MILLIS_AND_NANOS)
                .createVector(allocator);
        try {
            VectorWriter.write(node.out, e.type(), vector, rows, n, batch.rowCount());
            return vector;
        } catch (RuntimeException | Error t) {
            vector.close();
            throw t;
        }
    }

    /**
     * True if an enclosing ROW of the nested field is null in one of rows {@code rows[0..n)}: there the field is
     * null, whatever its own vector holds. Rows outside the selection are never read downstream.
     */
    private boolean hasNullParents(ColumnLoad load, int[] rows, int n) {
        if (load.path().length == 0) {
            return false;
        }
        ValueVector[] parents = new ValueVector[load.path().length];
        load.vector(batch, parents);
        for (ValueVector parent : parents) {
            if (parent.getNullCount() == 0) {
                continue;
            }
            ValidityBits bits = parentValidity.read(parent, batch.rowCount());
            for (int k = 0; k < n; k++) {
                if (bits.isNull(rows[k])) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A vector over the same (reference counted) buffers, renamed; no bytes are copied. */
    private FieldVector share(FieldVector source, String name) {
        TransferPair pair = source.getTransferPair(name, source.getAllocator());
        pair.splitAndTransfer(0, source.getValueCount());
        return (FieldVector) pair.getTo();
    }
}
