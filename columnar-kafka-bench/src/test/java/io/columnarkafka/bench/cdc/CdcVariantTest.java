package io.columnarkafka.bench.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.bench.JvmWarmUp;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --variants} of bin/bench-cdc: the forms a variant takes (planner options only, checked against the planner's
 * own), its session options and connectors, its trip through the cell's arguments, and the checks on the list.
 */
class CdcVariantTest {
    private static final String OFF = "columnar:local-group-agg.vectorised=false";

    @Test
    void anExtraVariantIsColumnarWithItsPlannerOptionsUnderTheirFullKeys() {
        CdcVariant off = CdcVariant.parse(OFF);

        assertThat(off.columnar()).isTrue();
        assertThat(off.extra()).isTrue();
        assertThat(off.control()).isFalse();
        assertThat(off.id()).isEqualTo(OFF);
        assertThat(off.sessionOptions())
                .containsExactly(Map.entry("columnar-kafka.planner.local-group-agg.vectorised", "false"));
        assertThat(off.connector(true)).isEqualTo("upsert-kafka-columnar");
        assertThat(CdcVariant.parse(off.id())).isEqualTo(off).isNotEqualTo(CdcVariant.COLUMNAR);
        assertThat(CdcVariant.parse("stock")).isSameAs(CdcVariant.STOCK);
        assertThat(CdcVariant.STOCK.connector(true)).isEqualTo("upsert-kafka");
        assertThat(CdcVariant.STOCK.id()).isEqualTo("stock");
        assertThat(CdcVariant.parse("columnar")).isSameAs(CdcVariant.COLUMNAR);
        assertThat(CdcVariant.COLUMNAR.extra()).isFalse();
        assertThatThrownBy(() -> CdcVariant.parse("columnar:local-group-agg.vectorised=nope"))
                .hasMessageStartingWith("planner option local-group-agg.vectorised does not take 'nope'");
        assertThatThrownBy(() -> CdcVariant.parse("columnar:-Dcolumnarkafka.arrow.warm-up=false"))
                .as("planner options only").hasMessageStartingWith("unknown planner option '-Dcolumnarkafka");
        assertThatThrownBy(() -> CdcVariant.parse("floor")).hasMessageStartingWith("variant 'floor' is not stock,");
    }

    /** The A/A control: the default columnar configuration under a label of its own, an extra variant. */
    @Test
    void theAaControlIsTheDefaultColumnarConfigurationUnderItsOwnLabel() {
        CdcVariant control = CdcVariant.parse("columnar#2");

        assertThat(control).isSameAs(CdcVariant.CONTROL).isNotEqualTo(CdcVariant.COLUMNAR);
        assertThat(control.extra()).isTrue();
        assertThat(control.sessionOptions()).isEmpty();
        assertThat(control.connector()).isEqualTo(CdcVariant.COLUMNAR.connector());
        assertThat(control.id()).isEqualTo("columnar#2");
    }

    @Test
    void theListNeedsStockAndColumnarAndSortsStockColumnarTheControlThenTheRest() {
        assertThat(CdcBenchmark.variants("stock,columnar")).containsExactly(CdcVariant.STOCK, CdcVariant.COLUMNAR);
        assertThat(CdcBenchmark.variants(OFF + ",columnar#2, columnar,stock")).extracting(CdcVariant::id)
                .containsExactly("stock", "columnar", "columnar#2", OFF);
        assertThatThrownBy(() -> CdcBenchmark.variants("stock," + OFF))
                .hasMessageStartingWith("--variants needs stock and columnar");
        assertThatThrownBy(() -> CdcBenchmark.variants("stock,columnar,columnar#2,columnar#2"))
                .hasMessageStartingWith("--variants names a variant twice");
        assertThatThrownBy(() -> CdcBenchmark.parse(new String[] {"--variants", "stock,columnar,columnar:x=1"}))
                .hasMessageStartingWith("unknown planner option 'x'");
    }

    @Test
    void aCellOfAnExtraVariantRoundTripsThroughItsArguments() {
        CdcCell cell = CdcBenchmark.parse(new String[] {"--variants", "stock,columnar," + OFF, "--mini-batch", "on"})
                .cell("b:9092", "in", CdcQuery.CDC_EXTREMES, CdcVariant.parse(OFF), 3, "7");

        assertThat(CdcCell.fromArgs(cell.toArgs().toArray(String[]::new))).isEqualTo(cell);
        assertThat(cell.label()).isEqualTo("cdc-extremes-" + OFF + "-mb");
        assertThat(cell.warmUpRun().variant()).isEqualTo(cell.variant());
        assertThat(CdcCell.fromArgs(CdcBenchmark.parse(new String[0]).cell("b", "in", CdcQuery.CDC_AGG,
                CdcVariant.CONTROL, 1, "8").toArgs().toArray(String[]::new)).variant()).isSameAs(CdcVariant.CONTROL);
        assertThat(cell.jvmWarmUp()).isEqualTo(JvmWarmUp.OFF);
    }
}
