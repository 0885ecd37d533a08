package io.columnarkafka.bench.nexmark;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.NodeKind;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The columnar calc program the planner stage makes of a stateless Nexmark query, planned (not run) as its cell plans
 * it: the suite's {@code kafka-columnar} source table without a watermark, its views, the query's {@code
 * kafka-columnar} result table and {@code count_char}. For harnesses that run the calc outside a job on a query whose
 * calc calls a user-defined function through Flink's generated code (q14), which only the planner can make. Needs
 * Flink's planner jar on the class path in place of the planner loader ({@link PlannerClasspath}).
 */
public final class PlannedCalc {
    private PlannedCalc() {}

    /** The program of the one columnar Calc of stateless query {@code id}; fails if it has none or several. */
    public static CalcProgram of(String id) {
        NexmarkQuery query = NexmarkQuery.byId(id);
        if (query.stateful) {
            throw new IllegalArgumentException(id + " is stateful: its plan is not one columnar calc");
        }
        TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tables.createTemporarySystemFunction("count_char", CountChar.class);
        if (!ColumnarSql.install(tables).installed()) {
            throw new IllegalStateException("the columnar planner stage is not installed (Flink's planner jar must"
                    + " be on the class path, not the planner loader)");
        }
        tables.executeSql(NexmarkSql.sourceTable("kafka-columnar", "localhost:1", "events", "planned", false,
                ClientSettings.DEFAULTS));
        NexmarkSql.views().forEach(tables::executeSql);
        String sink = NexmarkSql.sinkOptions("kafka-columnar", false, "localhost:1", id, "planned",
                ClientSettings.DEFAULTS, Map.of());
        List<String> statements = query.statements(sink);
        statements.subList(0, statements.size() - 1).forEach(tables::executeSql);
        String explained = ColumnarSql.explain(tables, statements.get(statements.size() - 1));
        List<NodeDecision> calcs = ColumnarSql.lastDecision(tables).decisions().stream()
                .filter(d -> d.kind() == NodeKind.CALC && d.isColumnar()).toList();
        if (calcs.size() != 1) {
            throw new IllegalStateException(id + " has " + calcs.size() + " columnar calcs, not one:\n" + explained);
        }
        return calcs.get(0).program();
    }
}
