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
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(NexmarkRuns.sourceTable("kafka-columnar", "localhost:1", "events", "g", false));
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
        String explained = ColumnarSql.explain(tEnv, insert);
        String decision = explained.substring(explained.indexOf("== Columnar Decision =="));
        assertThat(decision).contains("columnar TableSourceScan: admitted: json value")
                .containsPattern("(columnar Calc|Flink Calc: CALC_NOT_EXACT)")
                .doesNotContain("EXPRESSION_NOT_TRANSLATED");
    }
}
