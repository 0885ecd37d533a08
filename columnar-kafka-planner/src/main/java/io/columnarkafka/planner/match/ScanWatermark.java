package io.columnarkafka.planner.match;

import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.table.ColumnarTables;
import io.columnarkafka.planner.PlannerOptions;
import java.util.Optional;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.planner.plan.abilities.source.SourceAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.source.WatermarkPushDownSpec;
import org.apache.flink.table.planner.plan.schema.TableSourceTable;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * How a columnar scan finds the row of each batch that its split's watermark generator is handed: the pushed
 * watermark expression ({@link WatermarkPushDownSpec}, over the source's produced row type) evaluated as one
 * column per batch where it translates and the calc's compiler admits it, else Flink's generator run on every row
 * (the row probe; also when {@link PlannerOptions#COLUMNAR_WATERMARK} is false). EXPLAIN: {@code watermark=[columnar]} or {@code watermark=[row probe: <reason>]}.
 *
 * @param columnar the expression evaluated on the vectors, or null for the row probe
 * @param explain what EXPLAIN shows
 */
public record ScanWatermark(Expr columnar, String explain) {

    /** The watermark path of an admitted Arrow scan, or empty when no watermark was pushed into it. */
    static Optional<ScanWatermark> of(TableScan scan) {
        TableSourceTable table = scan.getTable().unwrap(TableSourceTable.class);
        for (SourceAbilitySpec spec : table.abilitySpecs()) {
            if (spec instanceof WatermarkPushDownSpec pushed) {
                return Optional.of(of(scan, table.tableSource(), pushed.getWatermarkExpr()));
            }
        }
        return Optional.empty();
    }

    private static ScanWatermark of(TableScan scan, DynamicTableSource source, RexNode watermark) {
        if (!ShortcutUtils.unwrapTableConfig(scan).get(PlannerOptions.COLUMNAR_WATERMARK)) {
            return rowProbe(PlannerOptions.COLUMNAR_WATERMARK.key() + " is false");
        }
        boolean legacyCast = ShortcutUtils.unwrapTableConfig(scan)
                .get(ExecutionConfigOptions.TABLE_EXEC_LEGACY_CAST_BEHAVIOUR).isEnabled();
        Expr expr;
        try {
            expr = RexToExpr.expression(watermark, scan.getCluster().getRexBuilder(), legacyCast);
        } catch (NotTranslatable e) {
            return rowProbe(e.getMessage());
        }
        Optional<String> unsupported = ColumnarTables.columnarWatermarkUnsupported(source, expr);
        return unsupported.isPresent() ? rowProbe(unsupported.get()) : new ScanWatermark(expr, "columnar");
    }

    private static ScanWatermark rowProbe(String reason) {
        return new ScanWatermark(null, "row probe: " + reason);
    }
}
