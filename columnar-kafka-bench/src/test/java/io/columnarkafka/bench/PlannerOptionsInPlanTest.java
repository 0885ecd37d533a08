package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a plan shows of a variant's planner options, read off EXPLAIN lines in the form the planner stage prints
 * them (ColumnarSqlExplainTest and LocalWindowAggFallbackTest assert that form against real plans): shown, not
 * shown where the plan has no node the option decides, and a plan showing the other choice failing the cell.
 */
class PlannerOptionsInPlanTest {
    private static final String VIEWS_EDGES = String.join("\n",
            "Sink(table=[default_catalog.default_database.out], fields=[auction, price])",
            "+- GlobalWindowAggregate(groupBy=[auction], window=[HOP(...)], select=[auction, COUNT(count1$0)])",
            "   +- Exchange(distribution=[hash[auction]])",
            "      +- ArrowToRows(reason=[LOCAL_WINDOW_AGGREGATE], rows=[views])",
            "         +- ColumnarLocalWindowAggregate(groupBy=[auction], local=[vectorised], select=[COUNT(*)])",
            "            +- ArrowToRows(reason=[CALC_NOT_EXACT x], rows=[views])");
    private static final String TURNED_OFF = "+- ColumnarLocalWindowAggregate(groupBy=[auction], local=[row view, not"
            + " vectorised: columnar-kafka.planner.local-window-agg.vectorised is false], select=[COUNT(*)])";

    @Test
    void edgeRowsShownOnEveryEdge() {
        assertThat(PlannerOptionsInPlan.describe(options("columnar:edge-rows=VIEWS"), VIEWS_EDGES))
                .isEqualTo("edge-rows=VIEWS: rows=[views] on 2 of 2 edge(s)");
        assertThat(PlannerOptionsInPlan.describe(options("columnar:edge-rows=views"), VIEWS_EDGES))
                .as("the option's value in any case").isEqualTo("edge-rows=views: rows=[views] on 2 of 2 edge(s)");
    }

    @Test
    void anEdgeOfTheOtherKindFailsTheCell() {
        String mixed = VIEWS_EDGES.replaceFirst("rows=\\[views]", "rows=[binary]");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(options("columnar:edge-rows=VIEWS"), mixed))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the plan contradicts the variant's edge-rows=VIEWS: 1 of 2 Arrow-to-rows"
                        + " edges are not rows=[views]");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(options("columnar:edge-rows=BINARY"),
                VIEWS_EDGES)).hasMessageContaining("2 of 2 Arrow-to-rows edges are not rows=[binary]");
    }

    @Test
    void anOptionWhoseNodeThePlanLacksIsNotShown() {
        String noEdge = "Sink(table=[out])\n+- ColumnarSink(...)\n   +- ColumnarCalc(...)\n      +- ColumnarScan(...)";
        assertThat(PlannerOptionsInPlan.describe(
                options("columnar:edge-rows=VIEWS+local-window-agg.vectorised=false"), noEdge))
                .isEqualTo("edge-rows=VIEWS: not shown (the plan has no Arrow-to-rows edge); local-window-agg."
                        + "vectorised=false: not shown (the plan has no columnar local window aggregate)");
        assertThat(PlannerOptionsInPlan.describe(Map.of(), VIEWS_EDGES)).isEmpty();
        assertThat(PlannerOptionsInPlan.notShown(PlannerOptionsInPlan.describe(
                options("columnar:edge-rows=VIEWS"), noEdge))).isTrue();
        assertThat(PlannerOptionsInPlan.notShown(PlannerOptionsInPlan.describe(
                options("columnar:edge-rows=VIEWS"), VIEWS_EDGES))).isFalse();
    }

    @Test
    void theLocalWindowAggregateShowsTheOptionTurnedItOff() {
        Map<String, String> off = options("columnar:local-window-agg.vectorised=false");
        assertThat(PlannerOptionsInPlan.describe(off, TURNED_OFF)).isEqualTo("local-window-agg.vectorised=false:"
                + " local=[row view, not vectorised: ... is false] on 1 of 1 columnar local window aggregate(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, VIEWS_EDGES))
                .hasMessageStartingWith("the plan contradicts the variant's local-window-agg.vectorised=false: 1 of 1"
                        + " columnar local window aggregates are not row views turned off by the option");
        Map<String, String> on = options("columnar:local-window-agg.vectorised=true");
        assertThat(PlannerOptionsInPlan.describe(on, VIEWS_EDGES)).isEqualTo("local-window-agg.vectorised=true:"
                + " local=[vectorised] on 1 of 1 columnar local window aggregate(s) (the rest row views for their"
                + " shape)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(on, TURNED_OFF))
                .hasMessageContaining("1 local window aggregate(s) say the option is false");
    }

    @Test
    void theLocalGroupAggregateShowsWhetherItIsVectorised() {
        String vectorised = "+- ColumnarLocalGroupAggregate(groupBy=[auction], select=[auction, COUNT(*) AS count1$0],"
                + " local=[vectorised])";
        String turnedOff = "+- LocalGroupAggregate(groupBy=[auction], select=[auction, COUNT(*) AS count1$0])\n"
                + "   +- ArrowToRows(reason=[AGGREGATE_NOT_VECTORISED"
                + " columnar-kafka.planner.local-group-agg.vectorised is false], rows=[binary])";
        Map<String, String> off = options("columnar:local-group-agg.vectorised=false");
        Map<String, String> on = options("columnar:local-group-agg.vectorised=true");
        assertThat(PlannerOptionsInPlan.describe(off, turnedOff)).isEqualTo("local-group-agg.vectorised=false:"
                + " AGGREGATE_NOT_VECTORISED ... is false shown 1 time(s)");
        assertThat(PlannerOptionsInPlan.describe(on, vectorised)).isEqualTo("local-group-agg.vectorised=true:"
                + " ColumnarLocalGroupAggregate(...) shown 1 time(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, vectorised))
                .hasMessageStartingWith("the plan contradicts the variant's local-group-agg.vectorised=false: 1"
                        + " vectorised local group aggregate(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(on, turnedOff))
                .hasMessageContaining("1 edge(s) say the option is false");
        assertThat(PlannerOptionsInPlan.describe(on, VIEWS_EDGES)).isEqualTo("local-group-agg.vectorised=true:"
                + " not shown (the plan has no local group aggregate the option decides)");
    }

    @Test
    void theScanShowsWhetherItsWatermarkIsAColumn() {
        String columnar = "+- ColumnarScan(table=[[default_catalog, default_database, nexmark, watermark=[-(CASE(...),"
                + " 4000:INTERVAL SECOND)]]], fields=[event_type, bid], decode=[admitted: json value],"
                + " watermark=[columnar])";
        String probed = "+- ColumnarScan(table=[[default_catalog, default_database, nexmark, watermark=[-(CASE(...),"
                + " 4000:INTERVAL SECOND)]]], fields=[event_type, bid], decode=[admitted: json value],"
                + " watermark=[row probe: columnar-kafka.planner.watermark.columnar is false])";
        Map<String, String> off = options("columnar:watermark.columnar=false");
        assertThat(PlannerOptionsInPlan.describe(off, probed)).isEqualTo("watermark.columnar=false:"
                + " watermark=[row probe: ... is false] on 1 of 1 watermarked columnar scan(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, columnar))
                .hasMessageStartingWith("the plan contradicts the variant's watermark.columnar=false: 1 of 1");
        Map<String, String> on = options("columnar:watermark.columnar=true");
        assertThat(PlannerOptionsInPlan.describe(on, columnar)).isEqualTo("watermark.columnar=true:"
                + " watermark=[columnar] on 1 of 1 watermarked columnar scan(s)");
        assertThat(PlannerOptionsInPlan.describe(off, VIEWS_EDGES))
                .isEqualTo("watermark.columnar=false: not shown (the plan has no columnar scan with a watermark)");
    }

    @Test
    void theCalcEdgeShowsWhetherTheCalcWasSplit() {
        String split = String.join("\n",
                "+- Calc(select=[auction, CAST(count_char(extra, _UTF-16LE'c') AS BIGINT) AS c_counts])",
                "   +- ArrowToRows(reason=[EXPRESSION_NOT_TRANSLATED c_counts: UDF count_char (a user-defined"
                        + " function: only Flink's generated code calls it)], rows=[binary])",
                "      +- ColumnarCalc(select=[auction, extra], where=[>(price, 10)])");
        String whole = String.join("\n",
                "+- Calc(select=[auction, CAST(count_char(extra, _UTF-16LE'c') AS BIGINT) AS c_counts],"
                        + " where=[>(price, 10)])",
                "   +- ArrowToRows(reason=[EXPRESSION_NOT_TRANSLATED UDF count_char (a user-defined function: only"
                        + " Flink's generated code calls it); not split: columnar-kafka.planner.calc.split is false],"
                        + " rows=[binary])");
        String unsplittable = "   +- ArrowToRows(reason=[EXPRESSION_NOT_TRANSLATED operator ABS (OTHER_FUNCTION) has no"
                + " columnar counterpart; not split: no condition to apply before the edge], rows=[binary])";
        Map<String, String> off = options("columnar:calc.split=false");
        assertThat(PlannerOptionsInPlan.describe(off, whole))
                .isEqualTo("calc.split=false: not split: ... is false on 1 of 1 Calc edge(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, split))
                .hasMessageStartingWith("the plan contradicts the variant's calc.split=false: 1 of 1 Calc edges are"
                        + " not whole Calcs turned off by the option");
        Map<String, String> on = options("columnar:calc.split=true");
        assertThat(PlannerOptionsInPlan.describe(on, split + "\n" + unsplittable)).isEqualTo("calc.split=true:"
                + " split on 1 of 2 Calc edge(s) (the rest not split for their shape)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(on, whole))
                .hasMessageContaining("1 Calc edge(s) say the option is false");
        assertThat(PlannerOptionsInPlan.describe(off, TURNED_OFF))
                .isEqualTo("calc.split=false: not shown (the plan has no Arrow-to-rows edge before a Flink Calc)");
    }

    @Test
    void theCalcShowsWhetherItRunsTheUdf() {
        String inCalc = String.join("\n",
                "+- ColumnarSink(table=[default_catalog.default_database.nexmark_q14], fields=[auction, c_counts])",
                "   +- ColumnarCalc(select=[bid.auction AS auction, CAST(count_char(bid.extra, 'c') AS BIGINT)"
                        + " AS c_counts], where=[=(event_type, 2)], flinkCode=[c_counts (UDF count_char)])");
        String turnedOff = String.join("\n",
                "+- Calc(select=[auction, CAST(count_char(extra, _UTF-16LE'c') AS BIGINT) AS c_counts])",
                "   +- ArrowToRows(reason=[EXPRESSION_NOT_TRANSLATED c_counts: UDF count_char (a user-defined"
                        + " function: only Flink's generated code calls it; not in the calc:"
                        + " columnar-kafka.planner.calc.flink-code is false)], rows=[binary])");
        Map<String, String> on = options("columnar:calc.flink-code=true");
        Map<String, String> off = options("columnar:calc.flink-code=false");
        assertThat(PlannerOptionsInPlan.describe(on, inCalc))
                .isEqualTo("calc.flink-code=true: flinkCode=[...] on 1 columnar calc(s)");
        assertThat(PlannerOptionsInPlan.describe(off, turnedOff))
                .isEqualTo("calc.flink-code=false: not in the calc: ... is false shown 1 time(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, inCalc))
                .hasMessageStartingWith("the plan contradicts the variant's calc.flink-code=false: 1 columnar calc(s)"
                        + " run Flink's generated code");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(on, turnedOff))
                .hasMessageContaining("1 edge(s) say the option is false");
        assertThat(PlannerOptionsInPlan.describe(on, VIEWS_EDGES)).isEqualTo("calc.flink-code=true: not shown (the"
                + " plan has no user-defined function call the option decides)");
    }

    @Test
    void theSinkShowsWhetherTheRowHeadTookFlinksSteps() {
        String rowSink = String.join("\n",
                "ColumnarRowSink(table=[default_catalog.default_database.nexmark_q19], fields=[auction, rank_number],"
                        + " head=[ConstraintEnforcer[NotNullEnforcer(fields=[auction, rank_number])]],"
                        + " encode=[admitted: json value, json key, upsert tombstones])",
                "+- Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER])");
        String flinks = String.join("\n", "Sink(table=[default_catalog.default_database.nexmark_q19],"
                + " fields=[auction, rank_number])", "+- Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER])");
        Map<String, String> on = options("columnar:sink.row-head=true");
        Map<String, String> off = options("columnar:sink.row-head=false");
        assertThat(PlannerOptionsInPlan.describe(on, rowSink))
                .isEqualTo("sink.row-head=true: ColumnarRowSink(...) shown 1 time(s)");
        assertThat(PlannerOptionsInPlan.describe(off, flinks))
                .isEqualTo("sink.row-head=false: no ColumnarRowSink (Flink's sink node)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, rowSink))
                .hasMessageStartingWith("the plan contradicts the variant's sink.row-head=false: 1 ColumnarRowSink(s)");
        assertThat(PlannerOptionsInPlan.describe(on, flinks))
                .isEqualTo("sink.row-head=true: not shown (the plan has no sink the row head takes)");
    }

    @Test
    void theRowSinkShowsWhetherItTookFlinksCalcIn() {
        String rank = "   +- Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER])";
        String taken = String.join("\n",
                "ColumnarRowSink(table=[default_catalog.default_database.nexmark_q19], fields=[auction, rank_number],"
                        + " calc=[Calc(select=[auction, rank_number])], head=[ConstraintEnforcer[NotNullEnforcer(fields="
                        + "[auction, rank_number])]], encode=[admitted: json value, json key, upsert tombstones])", rank);
        String turnedOff = String.join("\n",
                "ColumnarRowSink(table=[default_catalog.default_database.nexmark_q19], fields=[auction, rank_number],"
                        + " calc=[not taken: columnar-kafka.planner.sink.row-calc is false], head=[ConstraintEnforcer["
                        + "NotNullEnforcer(fields=[auction, rank_number])]], encode=[admitted: json value])",
                "+- Calc(select=[auction, rank_number])", rank);
        Map<String, String> on = options("columnar:sink.row-calc=true");
        Map<String, String> off = options("columnar:sink.row-calc=false");
        assertThat(PlannerOptionsInPlan.describe(on, taken))
                .isEqualTo("sink.row-calc=true: calc=[Calc(...)] on 1 row sink(s)");
        assertThat(PlannerOptionsInPlan.describe(off, turnedOff))
                .isEqualTo("sink.row-calc=false: calc=[not taken: ... is false] on 1 row sink(s)");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(off, taken))
                .hasMessageStartingWith("the plan contradicts the variant's sink.row-calc=false: 1 row sink(s) took a"
                        + " Calc in");
        assertThatThrownBy(() -> PlannerOptionsInPlan.describe(on, turnedOff))
                .hasMessageStartingWith("the plan contradicts the variant's sink.row-calc=true: 1 row sink(s) say the"
                        + " option is false");
        assertThat(PlannerOptionsInPlan.describe(on, rank)).isEqualTo("sink.row-calc=true: not shown (the plan has no"
                + " row sink over a Calc the option decides)");
    }

    /** The planner options of a variant spelled as on the command line. */
    private static Map<String, String> options(String variant) {
        return VariantSpelling.plannerOptions(variant);
    }
}
