package io.columnarkafka.planner.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.flink.calc.eval.SharedCallsSeam;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.NodeKind;
import io.columnarkafka.testkit.nexmark.CountChar;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
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
     * Nexmark q21 calls {@code REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)} in its condition and again in its
     * CASE, and {@code LOWER(channel)} in both: the expressions translated from the real planner's Calc are equal
     * calls (literal types and all), so the compiled calc computes each once per row, one shared node for every
     * reader, as on the hand-built expressions of SharedNodeTest.
     */
    @ParameterizedTest
    @EnumSource(value = Op.class, names = {"REGEXP_EXTRACT", "LOWER"})
    void q21sRepeatedCallIsOneSharedNode(Op op) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        explainIn(tEnv, "q21", false, false);
        List<NodeDecision> calcs = ColumnarSql.lastDecision(tEnv).decisions().stream()
                .filter(d -> d.kind() == NodeKind.CALC).toList();
        assertThat(calcs).hasSize(1);
        assertThat(calcs.get(0).isColumnar()).as(calcs.get(0).describe()).isTrue();
        CalcProgram program = calcs.get(0).program();

        List<Expr.Call> inCondition = calls(program.condition(), op);
        List<Expr.Call> inProjections = new ArrayList<>();
        program.projections().forEach(p -> inProjections.addAll(calls(p, op)));
        assertThat(inCondition).as("%s in the condition", op).isNotEmpty();
        assertThat(inProjections).as("%s in the projections", op).isNotEmpty();
        Set<Expr.Call> distinct = new HashSet<>(inCondition);
        distinct.addAll(inProjections);
        assertThat(distinct).as("every %s of the Calc equal", op).hasSize(1);
        assertThat(SharedCallsSeam.sharedCalls(program)).as("the compiled calc's shared nodes")
                .contains(distinct.iterator().next());
    }

    /** Every call of {@code op} in {@code e}, nested ones included. */
    private static List<Expr.Call> calls(Expr e, Op op) {
        List<Expr.Call> found = new ArrayList<>();
        if (e instanceof Expr.Call call) {
            if (call.op() == op) {
                found.add(call);
            }
            call.operands().forEach(operand -> found.addAll(calls(operand, op)));
        } else if (e instanceof Expr.Field field) {
            found.addAll(calls(field.row(), op));
        }
        return found;
    }

    /**
     * Nexmark q14 calls the suite's UDF {@code count_char} in its projection: the columnar calc filters the price
     * range, computes the other projections and calls the UDF itself, with Flink's generated code for the call, on
     * the rows that passed; its batches go to the columnar sink, no edge, no row Calc.
     */
    @org.junit.jupiter.api.Test
    void q14RunsTheUdfInTheColumnarCalc() {
        String explained = explain("q14", false);
        String physical = explained.substring(explained.indexOf("== Optimized Physical Plan =="),
                explained.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("ColumnarSink\\([^\\n]*\\n"
                        + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*count_char\\(bid\\.extra, 'c'\\)"
                        + "[^\\n]* AS c_counts\\], where=\\[[^\\n]*\\*\\(0\\.908, bid\\.price\\)")
                .doesNotContain("ArrowToRows(").doesNotContainPattern("(?<!Columnar)Calc\\(");
        assertThat(explained.substring(explained.indexOf("== Columnar Decision ==")))
                .contains("columnar Calc: 7 projections, a filter; Flink's generated code in the calc: c_counts"
                        + " (UDF count_char)");
    }

    /**
     * With {@code columnar-kafka.planner.calc.flink-code} off, q14's Calc is split as before: the price range
     * filtered columnar (with the admitted projections: the price product, the CASE over HOUR), the edge after the
     * filter, and Flink's Calc calling the UDF on the passed rows, with the reason (issue #11).
     */
    @org.junit.jupiter.api.Test
    void q14WithFlinkCodeOffFiltersColumnarAndLeavesOnlyTheUdfToFlinksCalc() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("columnar-kafka.planner.calc.flink-code", "false");
        String explained = explainIn(tEnv, "q14", false, false);
        String physical = explained.substring(explained.indexOf("== Optimized Physical Plan =="),
                explained.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("(?<!Columnar)Calc\\(select=\\[[^\\n]*count_char\\(extra, _UTF-16LE'c'\\)"
                        + "[^\\n]* AS c_counts\\]\\)\\n"
                        + "[ :]*\\+- ArrowToRows\\(reason=\\[EXPRESSION_NOT_TRANSLATED c_counts: UDF count_char[^\\n]*"
                        + "columnar-kafka.planner.calc.flink-code is false[^\\n]*\\n"
                        + "[ :]*\\+- ColumnarCalc\\(select=\\[[^\\n]*CASE\\([^\\n]*where=\\[[^\\n]*\\*\\(0\\.908, bid\\.price\\)")
                .doesNotContainPattern("(?<!Columnar)Calc\\([^\\n]*where=");
        assertThat(explained.substring(explained.indexOf("== Columnar Decision ==")))
                .contains("columnar Calc: split: the filter and 6 of 7 projections columnar; Flink's Calc after the"
                        + " edge: EXPRESSION_NOT_TRANSLATED c_counts: UDF count_char");
    }

    /**
     * Nexmark q12 gives each bid a processing-time attribute ({@code PROCTIME()}), which only Flink's Calc writes:
     * the bid filter runs columnar and Flink's Calc after the edge adds the attribute; the plan translates.
     */
    @org.junit.jupiter.api.Test
    void q12FiltersColumnarAndLeavesTheProcessingTimeAttributeToFlinksCalc() {
        String explained = explain("q12", false);
        assertThat(explained).contains("== Optimized Execution Plan ==")
                .containsPattern("ArrowToRows\\(reason=\\[EXPRESSION_NOT_TRANSLATED p_time: operator PROCTIME")
                .containsPattern("ColumnarCalc\\(select=\\[[^\\n]*where=\\[=\\(event_type, 2\\)\\]");
        assertThat(explained.substring(explained.indexOf("== Columnar Decision ==")))
                .contains("columnar Calc: split: the filter and 1 of 2 projections columnar");
    }

    /**
     * An event-time query: the Calc before the windows computes the rowtime attribute, {@code Reinterpret} of
     * the suite's CASE over the nested event times; it runs columnar, and the edge to Flink's window operators
     * (or the columnar local window aggregate, which reads its batches) comes after it. The scan evaluates the
     * watermark (the same CASE, minus 4 seconds) as a column of each batch, {@code watermark=[columnar]}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q5", "q7"})
    void theRowtimeCalcOfAnEventTimeQueryIsColumnar(String query) {
        String explained = explain(query, true);
        String physical = explained.substring(explained.indexOf("== Optimized Physical Plan =="),
                explained.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("ColumnarCalc\\(select=\\[[^\\n]*Reinterpret\\(CASE\\(")
                .contains("ColumnarScan(").contains("watermark=[columnar]").containsPattern("(ArrowToRows|ColumnarLocalWindowAggregate)\\(")
                .doesNotContain("WatermarkAssigner(");
        String decision = explained.substring(explained.indexOf("== Columnar Decision =="));
        assertThat(decision).contains("columnar Calc").doesNotContain("EXPRESSION_NOT_TRANSLATED")
                .doesNotContain("CALC_NOT_EXACT");
    }

    /**
     * With mini-batch on (as the benchmark runs it), Flink puts a mini-batch assigner (processing-time before a
     * join or group aggregate, row-time before windows) between the scan and the Calcs. It runs on the batches,
     * so the plan keeps every columnar Calc it has with mini-batch off, each before its {@code ArrowToRows} edge or
     * columnar local window aggregate,
     * and no Calc is left to Flink for reading the assigner.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q3", "q4", "q5", "q7", "q8"})
    void withMiniBatchTheStatefulQueriesKeepTheirColumnarCalcsAfterTheAssigner(String query) {
        String on = explain(query, true, true);
        String physical = on.substring(on.indexOf("== Optimized Physical Plan =="),
                on.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("(ArrowToRows|ColumnarLocalWindowAggregate)\\(.*\\n[ :]*\\+- ColumnarCalc\\(.*\\n"
                        + "[ :]*\\+- ColumnarMiniBatchAssigner\\(interval=\\[\\d+ms\\], mode=\\[(ProcTime|RowTime)\\]\\)")
                .doesNotContainPattern("(?<!Columnar)MiniBatchAssigner\\(");
        String decisionOn = on.substring(on.indexOf("== Columnar Decision =="));
        assertThat(decisionOn).contains("columnar MiniBatchAssigner: Flink's")
                .doesNotContain("INPUT_NOT_COLUMNAR input MiniBatchAssigner");
        String decisionOff = decision(query, true, false);
        assertThat(count(decisionOn, "columnar Calc:")).as(decisionOn).isPositive()
                .isEqualTo(count(decisionOff, "columnar Calc:"));
    }

    /**
     * With mini-batch on, Flink plans q17's group aggregate in two phases; its local phase (counts with filters,
     * MIN, MAX, AVG and SUM of the price per auction and day) is computed on the columnar Calc's batches: no edge
     * before the exchange to Flink's global aggregate (issue #11).
     */
    @org.junit.jupiter.api.Test
    void withMiniBatchQ17sLocalAggregateIsVectorised() {
        assertThat(vectorisedLocalPhaseDecision("q17"))
                .containsPattern("columnar LocalGroupAggregate: vectorised keys=\\[\\$\\d+, \\$\\d+\\],"
                        + " aggregates=\\[COUNT\\(\\*\\), (COUNT\\(\\*\\) FILTER \\$\\d+, ){3}"
                        + "MIN\\(\\$\\d+\\), MAX\\(\\$\\d+\\), AVG\\(\\$\\d+\\), SUM\\(\\$\\d+\\)\\]");
    }

    /**
     * q15 counts DISTINCT bidders and auctions (with filters) per day, q16 also per channel, with the MAX of a time
     * string: their local phase is computed on the columnar Calc's batches too, each distinct column's four calls
     * sharing one set of values.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"q15|", "q16|MAX\\(\\$\\d+\\)"})
    void withMiniBatchQ15AndQ16sLocalAggregatesAreVectorised(String query, String max) {
        assertThat(vectorisedLocalPhaseDecision(query))
                .containsPattern("columnar LocalGroupAggregate: vectorised keys=\\[[^\\]]*\\], aggregates=\\["
                        + (max == null ? "" : max + ", ") + "COUNT\\(\\*\\), (COUNT\\(\\*\\) FILTER \\$\\d+, ){3}"
                        + "(COUNT\\(DISTINCT \\$\\d+\\)(, COUNT\\(DISTINCT \\$\\d+\\) FILTER \\$\\d+){3}(, |\\])){2}");
    }

    /**
     * The columnar decision of the query with mini-batch on, once its plan shows the local phase vectorised between
     * the columnar Calc and the exchange to Flink's global aggregate, with no edge.
     */
    private static String vectorisedLocalPhaseDecision(String query) {
        String explained = explain(query, true, true);
        String physical = explained.substring(explained.indexOf("== Optimized Physical Plan =="),
                explained.indexOf("== Optimized Execution Plan =="));
        assertThat(physical).containsPattern("GlobalGroupAggregate\\(.*\\n[ :]*\\+- Exchange\\(.*\\n"
                        + "[ :]*\\+- ColumnarLocalGroupAggregate\\(.*local=\\[vectorised\\]\\)\\n"
                        + "[ :]*\\+- ColumnarCalc\\(.*\\n[ :]*\\+- ColumnarMiniBatchAssigner\\(")
                .doesNotContain("ArrowToRows(");
        return explained.substring(explained.indexOf("== Columnar Decision =="));
    }

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    private static String decision(String query, boolean watermark) {
        return decision(query, watermark, false);
    }

    private static String decision(String query, boolean watermark, boolean miniBatch) {
        String explained = explain(query, watermark, miniBatch);
        return explained.substring(explained.indexOf("== Columnar Decision =="));
    }

    private static String explain(String query, boolean watermark) {
        return explain(query, watermark, false);
    }

    private static String explain(String query, boolean watermark, boolean miniBatch) {
        return explainIn(TableEnvironment.create(EnvironmentSettings.inStreamingMode()), query, watermark, miniBatch);
    }

    private static String explainIn(TableEnvironment tEnv, String query, boolean watermark, boolean miniBatch) {
        tEnv.createTemporarySystemFunction("count_char", CountChar.class);
        if (miniBatch) {
            NexmarkRuns.miniBatch(tEnv);
        }
        tEnv.executeSql(NexmarkRuns.sourceTable("kafka-columnar", "localhost:1", "events", "g", watermark));
        for (String view : NexmarkRuns.statements(NexmarkRuns.resource("views.sql"))) {
            tEnv.executeSql(view);
        }
        String insert = null;
        boolean upsert = NexmarkRuns.UPSERT_QUERIES.contains(query);
        String sink = NexmarkRuns.sinkOptions(upsert ? "upsert-kafka-columnar" : "kafka-columnar", "localhost:1",
                query, upsert);
        for (String statement : NexmarkRuns.statements(NexmarkRuns.resource(query + ".sql").replace("${SINK}", sink))) {
            if (statement.toUpperCase().startsWith("INSERT")) {
                insert = statement;
            } else {
                tEnv.executeSql(statement);
            }
        }
        return ColumnarSql.explain(tEnv, insert);
    }
}
