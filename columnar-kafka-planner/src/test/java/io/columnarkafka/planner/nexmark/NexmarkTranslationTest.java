package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.planner.ColumnarSql;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stateless Nexmark queries' Calcs translate into the calc's expressions (IN lists through SEARCH,
 * nested fields, CASE, the string functions): the decision for each Calc is the calc's own (columnar, or
 * its CalcSupport reason), never EXPRESSION_NOT_TRANSLATED. Planning only.
 */
class NexmarkTranslationTest {

    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2", "q21", "q22"})
    void everyCalcExpressionTranslates(String query) {
        String decision = decision(query, false);
        assertThat(decision).contains("columnar TableSourceScan: admitted: json value")
                .containsPattern("(columnar Calc|Flink Calc: CALC_NOT_EXACT)")
                .doesNotContain("EXPRESSION_NOT_TRANSLATED");
    }

    /**
     * An event-time query: the Calc before the windows computes the rowtime attribute, {@code Reinterpret} of
     * the suite's CASE over the nested event times; it runs columnar, and the edge to Flink's window operators
     * comes after it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q5", "q7"})
    void theRowtimeCalcOfAnEventTimeQueryIsColumnar(String query) {
        String explained = explain(query, true);
        String physical = explained.substring(explained.indexOf("== Optimized Physical Plan =="),
                explained.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("ColumnarCalc\\(select=\\[[^\\n]*Reinterpret\\(CASE\\(")
                .contains("ColumnarScan(").contains("ArrowToRows(").doesNotContain("WatermarkAssigner(");
        String decision = explained.substring(explained.indexOf("== Columnar Decision =="));
        assertThat(decision).contains("columnar Calc").doesNotContain("EXPRESSION_NOT_TRANSLATED")
                .doesNotContain("CALC_NOT_EXACT");
    }

    private static String decision(String query, boolean watermark) {
        String explained = explain(query, watermark);
        return explained.substring(explained.indexOf("== Columnar Decision =="));
    }

    private static String explain(String query, boolean watermark) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(NexmarkRuns.sourceTable("kafka-columnar", "localhost:1", "events", "g", watermark));
        for (String view : NexmarkRuns.statements(NexmarkRuns.resource("views.sql"))) {
            tEnv.executeSql(view);
        }
        String insert = null;
        for (String statement : NexmarkRuns.statements(NexmarkRuns.resource(query + ".sql")
                .replace("${SINK}", NexmarkRuns.sinkOptions("kafka-columnar", "localhost:1", query, false)))) {
            if (statement.toUpperCase().startsWith("INSERT")) {
                insert = statement;
            } else {
                tEnv.executeSql(statement);
            }
        }
        return ColumnarSql.explain(tEnv, insert);
    }
}
