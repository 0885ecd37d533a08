package io.columnarkafka.planner.translate;

import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.planner.plan.reuse.ScanReuser;
import org.apache.flink.table.planner.utils.ShortcutUtils;

/**
 * Flink's own scan union ({@link ScanReuser}), run before the stage decides: scans of one table that differ only
 * in their pushed-down columns become one scan of the union of the columns, each branch reading its columns
 * through a projection Calc over it. Flink runs it only in its sub-plan reuse, after the optimizer's programs
 * (so after this stage), where a columnar scan is no longer a {@code TableSourceScan} it would unite. Run under
 * the same options as Flink's: sub-plan reuse and source reuse on (Flink's defaults).
 */
final class ScanUnion {
    private ScanUnion() {}

    static RelNode apply(RelNode root) {
        ReadableConfig config = ShortcutUtils.unwrapTableConfig(root);
        if (!config.get(OptimizerConfigOptions.TABLE_OPTIMIZER_REUSE_SUB_PLAN_ENABLED)
                || !config.get(OptimizerConfigOptions.TABLE_OPTIMIZER_REUSE_SOURCE_ENABLED)) {
            return root;
        }
        return new ScanReuser(ShortcutUtils.unwrapContext(root), ShortcutUtils.unwrapTypeFactory(root))
                .reuseDuplicatedScan(List.of(root)).get(0);
    }
}
