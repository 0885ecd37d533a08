package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.ColumnarPlanPath;
import org.junit.jupiter.api.Test;

/** A fallback cannot pass as columnar: cdc-calc's columnar cells must plan scan, calc and sink with no edge. */
class CdcQueryTest {
    private static final String COLUMNAR = "== Optimized Execution Plan ==\nColumnarSink(table=[out], fields=[id])\n"
            + "+- ColumnarCalc(select=[id], where=[>(amount, 10)])\n   +- ColumnarScan(table=[orders], fields=[id])\n";
    private static final String EDGE = "== Optimized Execution Plan ==\nSink(table=[out], fields=[id])\n"
            + "+- ArrowToRows(fields=[id], rows=[VIEWS])\n   +- ColumnarCalc(select=[id])\n      +- ColumnarScan(table=[orders])\n";

    @Test
    void cdcCalcNeedsScanCalcAndSinkWithoutAnEdge() {
        assertThat(CdcQuery.CDC_CALC.pathMismatch(COLUMNAR)).isNull();
        assertThat(CdcQuery.CDC_CALC.pathMismatch(EDGE)).isEqualTo("no ColumnarSink in the plan");
        assertThat(CdcQuery.CDC_CALC.pathMismatch(COLUMNAR + "ArrowToRows(rows=[VIEWS])"))
                .isEqualTo("an ArrowToRows edge in the plan");
        assertThat(CdcQuery.CDC_AGG.pathMismatch(EDGE)).isNull();
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
