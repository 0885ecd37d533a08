package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.bench.ColumnarPlanPath;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fallback cannot pass as columnar: cdc-calc's and cdc-upsert's columnar cells must plan scan, calc and sink with no
 * edge, and with mini-batch on cdc-agg's must plan its local aggregate vectorised.
 */
class CdcQueryTest {
    private static final String COLUMNAR = "== Optimized Execution Plan ==\nColumnarSink(table=[out], fields=[id])\n"
            + "+- ColumnarCalc(select=[id], where=[>(amount, 10)])\n   +- ColumnarScan(table=[orders], fields=[id])\n";
    private static final String EDGE = "== Optimized Execution Plan ==\nSink(table=[out], fields=[id])\n"
            + "+- ArrowToRows(fields=[id], rows=[VIEWS])\n   +- ColumnarCalc(select=[id])\n      +- ColumnarScan(table=[orders])\n";

    /** cdc-agg with mini-batch on (EXPLAIN of a smoke run, columns cut), its local aggregate left out. */
    private static final String MINI_BATCH_AGG = "== Optimized Execution Plan ==\n"
            + "ColumnarRowSink(table=[cdc_customers], fields=[customer, EXPR$1])\n"
            + "+- GlobalGroupAggregate(groupBy=[customer], select=[customer, COUNT_RETRACT(count1$0) AS EXPR$1])\n"
            + "   +- Exchange(distribution=[hash[customer]])\n"
            + "${LOCAL}"
            + "            +- ColumnarCalc(select=[customer], where=[<>(status, 'CANCELLED')])\n"
            + "               +- ColumnarMiniBatchAssigner(interval=[2000ms], mode=[ProcTime])\n"
            + "                  +- ColumnarScan(table=[orders], fields=[customer, status])\n";
    /**
     * As the columnar stage planned it before the vectorised local aggregate took DECIMAL sums over a changelog:
     * Flink's local aggregate behind an edge, a fallback.
     */
    private static final String ROW_LOCAL = MINI_BATCH_AGG.replace("${LOCAL}",
            "      +- LocalGroupAggregate(groupBy=[customer], select=[customer, COUNT_RETRACT(*) AS count1$0])\n"
                    + "         +- ArrowToRows(reason=[AGGREGATE_NOT_VECTORISED SUM($1) of type DECIMAL(12, 2) (only INT,"
                    + " BIGINT)], rows=[binary], rowKinds=[from batches])\n");
    /** The path its columnar cells must plan: the local aggregate on the vectors, the global one Flink's. */
    private static final String VECTORISED_LOCAL = MINI_BATCH_AGG.replace("${LOCAL}",
            "      +- ColumnarLocalGroupAggregate(groupBy=[customer], select=[customer, COUNT_RETRACT(*) AS count1$0],"
                    + " local=[vectorised])\n");

    @Test
    void cdcCalcAndCdcUpsertNeedScanCalcAndSinkWithoutAnEdgeInEitherMode() {
        for (CdcQuery query : new CdcQuery[] {CdcQuery.CDC_CALC, CdcQuery.CDC_UPSERT}) {
            for (boolean miniBatch : new boolean[] {false, true}) {
                CdcQuery.RequiredPath path = query.requiredPath(miniBatch);
                assertThat(path.mismatch(COLUMNAR)).isNull();
                assertThat(path.mismatch(EDGE)).isEqualTo("no ColumnarSink in the plan");
                assertThat(path.mismatch(COLUMNAR + "ArrowToRows(rows=[VIEWS])"))
                        .isEqualTo("an ArrowToRows edge in the plan");
            }
        }
        assertThat(CdcQuery.CDC_CALC.requiredPath(false).describe())
                .isEqualTo("ColumnarScan → ColumnarCalc → ColumnarSink with no ArrowToRows edge");
    }

    @Test
    void cdcAggTakesAnyPathWithoutMiniBatchAndAVectorisedLocalAggregateWithIt() {
        CdcQuery.RequiredPath off = CdcQuery.CDC_AGG.requiredPath(false);
        assertThat(off.mismatch(EDGE)).isNull();
        assertThat(off.mismatch(ROW_LOCAL)).isNull();
        assertThat(off.describe()).isEqualTo("any");

        CdcQuery.RequiredPath on = CdcQuery.CDC_AGG.requiredPath(true);
        assertThat(on.mismatch(VECTORISED_LOCAL)).isNull();
        assertThat(on.mismatch(ROW_LOCAL)).as("the FAIL says why, in the stage's words")
                .isEqualTo("no ColumnarLocalGroupAggregate in the plan (edge: AGGREGATE_NOT_VECTORISED SUM($1) of type"
                        + " DECIMAL(12, 2) (only INT, BIGINT))");
        assertThat(on.mismatch(EDGE)).isEqualTo("no ColumnarLocalGroupAggregate in the plan");
        assertThat(on.mismatch(VECTORISED_LOCAL.replace(", local=[vectorised]", "")))
                .isEqualTo("a ColumnarLocalGroupAggregate without local=[vectorised] in the plan");
        assertThat(on.mismatch(VECTORISED_LOCAL + "ArrowToRows(rows=[BINARY])"))
                .as("the global aggregate is Flink's: an edge before it is allowed").isNull();
        assertThat(on.describe()).isEqualTo("ColumnarLocalGroupAggregate with local=[vectorised]");
    }

    /**
     * A variant turning the vectorised local aggregate off stands the required path down only where the option
     * decides it: its plan must then show the option took effect (the edge naming it), not merely lack the node.
     */
    @Test
    void aVariantTurningTheLocalAggregateOffMustShowItInsteadOfThePath() {
        CdcQuery.RequiredPath on = CdcQuery.CDC_AGG.requiredPath(true);
        Map<String, String> off = Map.of("local-group-agg.vectorised", "false");
        String turnedOff = MINI_BATCH_AGG.replace("${LOCAL}",
                "      +- LocalGroupAggregate(groupBy=[customer], select=[customer, COUNT_RETRACT(*) AS count1$0])\n"
                        + "         +- ArrowToRows(reason=[AGGREGATE_NOT_VECTORISED columnar-kafka.planner."
                        + "local-group-agg.vectorised is false], rows=[binary], rowKinds=[from batches])\n");

        assertThat(on.mismatch(turnedOff, off)).isNull();
        assertThat(on.mismatch(turnedOff, Map.of())).as("the default columnar variant and the A/A control")
                .startsWith("no ColumnarLocalGroupAggregate in the plan");
        assertThat(on.mismatch(turnedOff, Map.of("local-group-agg.vectorised", "TRUE")))
                .startsWith("no ColumnarLocalGroupAggregate in the plan");
        assertThat(on.mismatch(ROW_LOCAL, off)).as("an edge for another reason is not the option's doing")
                .startsWith("local-group-agg.vectorised=false: not shown");
        assertThatThrownBy(() -> on.mismatch(VECTORISED_LOCAL, off))
                .hasMessageStartingWith("the plan contradicts the variant's local-group-agg.vectorised=false");
        assertThat(on.mismatch(VECTORISED_LOCAL, Map.of("edge-rows", "VIEWS"))).as("another option: the path holds")
                .isNull();
        assertThat(on.mismatch(ROW_LOCAL, Map.of("edge-rows", "VIEWS")))
                .startsWith("no ColumnarLocalGroupAggregate in the plan");
        assertThat(CdcQuery.CDC_CALC.requiredPath(true).mismatch(EDGE, off))
                .as("the option decides no part of cdc-calc's path").isEqualTo("no ColumnarSink in the plan");
    }

    @Test
    void thePlanCensusCountsNodesAndEdges() {
        assertThat(ColumnarPlanPath.columnarNodes(COLUMNAR)).isEqualTo(3);
        assertThat(ColumnarPlanPath.edges(COLUMNAR)).isZero();
        assertThat(ColumnarPlanPath.describe(COLUMNAR)).isEqualTo("plan: ColumnarScan+ColumnarCalc+ColumnarSink");
        assertThat(ColumnarPlanPath.columnarNodes(EDGE)).isEqualTo(2);
        assertThat(ColumnarPlanPath.describe(EDGE)).isEqualTo("plan: ColumnarScan+ColumnarCalc+ArrowToRows x1 (VIEWS rows)");
    }

    @Test
    void queriesAreNamedByTheirIds() {
        assertThat(CdcQuery.byId("cdc-upsert")).isEqualTo(CdcQuery.CDC_UPSERT);
        assertThat(CdcQuery.CDC_AGG.id()).isEqualTo("cdc-agg");
    }
}
