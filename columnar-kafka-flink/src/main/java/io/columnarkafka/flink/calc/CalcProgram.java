package io.columnarkafka.flink.calc;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * One Calc as Flink's planner has it: an optional filter {@code condition} (a BOOLEAN expression; a row
 * passes when it is TRUE, not when it is FALSE or NULL), then {@code projections} over the {@code input}
 * row type, named {@code outputNames}.
 */
public record CalcProgram(RowType input, List<Expr> projections, List<String> outputNames, Expr condition)
        implements Serializable {

    public CalcProgram {
        Objects.requireNonNull(input, "input");
        projections = List.copyOf(projections);
        outputNames = List.copyOf(outputNames);
        if (projections.size() != outputNames.size()) {
            throw new IllegalArgumentException(
                    projections.size() + " projections but " + outputNames.size() + " output names");
        }
    }

    /** The row type of the output batches: the projections' types under the output names. */
    public RowType outputType() {
        LogicalType[] types = projections.stream().map(Expr::type).toArray(LogicalType[]::new);
        return RowType.of(false, types, outputNames.toArray(String[]::new));
    }

    /**
     * The parts that run Flink's generated code for a call ({@link Expr.FlinkCode}): {@code where (<calls>)} for the
     * condition, then each projection as {@code <name> (<calls>)}, e.g. {@code c_counts (UDF count_char)}; empty when
     * none does.
     */
    public List<String> flinkCodeParts() {
        List<String> parts = new ArrayList<>();
        if (condition != null) {
            addFlinkCodePart("where", condition, parts);
        }
        for (int p = 0; p < this.projections.size(); p++) {
            addFlinkCodePart(outputNames.get(p), this.projections.get(p), parts);
        }
        return parts;
    }

    private static void addFlinkCodePart(String name, Expr e, List<String> parts) {
        List<String> calls = new ArrayList<>();
        collectFlinkCode(e, calls);
        if (!calls.isEmpty()) {
            parts.add(name + " (" + String.join(", ", calls) + ")");
        }
    }

    private static void collectFlinkCode(Expr e, List<String> calls) {
        if (e instanceof Expr.FlinkCode code) {
            calls.add(code.name());
            code.arguments().forEach(a -> collectFlinkCode(a, calls));
        } else if (e instanceof Expr.Call call) {
            call.operands().forEach(o -> collectFlinkCode(o, calls));
        } else if (e instanceof Expr.Field field) {
            collectFlinkCode(field.row(), calls);
        }
    }
}
