package io.columnarkafka.flink.table;

import java.lang.reflect.InvocationTargetException;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.TableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a session that cannot call Java (the SQL client) install the columnar planner stage: with {@link
 * #ENABLED} set in the session ({@code SET 'columnar-kafka.planner.enabled' = 'true';}), the first {@code
 * kafka-columnar} table the planner creates installs it on the session's {@link TableConfig}, which Flink hands
 * the table factories as their configuration. The stage lives in {@code columnar-kafka-planner}; it is looked
 * up by name so this module needs no planner. The optimizer reads the stage when it optimizes, after the
 * tables of the statement were created, so the statement that created the table already runs with it.
 */
final class PlannerStageHook {
    private static final Logger LOG = LoggerFactory.getLogger(PlannerStageHook.class);

    static final ConfigOption<Boolean> ENABLED = ConfigOptions.key("columnar-kafka.planner.enabled")
            .booleanType()
            .defaultValue(false)
            .withDescription("Install the columnar planner stage (columnar-kafka-planner, Flink's planner jar in"
                    + " place of the planner loader) on the session when a kafka-columnar table is planned.");

    private static final String ENTRY_POINT = "io.columnarkafka.planner.ColumnarSql";

    private PlannerStageHook() {}

    static void installIfEnabled(ReadableConfig configuration) {
        if (!configuration.get(ENABLED)) {
            return;
        }
        if (!(configuration instanceof TableConfig tableConfig)) {
            LOG.warn("{} is set but the table factory was not given the session's TableConfig ({}): not installed",
                    ENABLED.key(), configuration.getClass().getName());
            return;
        }
        try {
            Class.forName(ENTRY_POINT, true, PlannerStageHook.class.getClassLoader())
                    .getMethod("install", TableConfig.class)
                    .invoke(null, tableConfig);
        } catch (ClassNotFoundException e) {
            LOG.warn("{} is set but {} is not on the classpath (columnar-kafka-planner): plain Flink runs the query",
                    ENABLED.key(), ENTRY_POINT);
        } catch (InvocationTargetException e) {
            LOG.warn("the columnar planner stage could not be installed: plain Flink runs the query", e.getCause());
        } catch (ReflectiveOperationException e) {
            LOG.warn("the columnar planner stage could not be installed: plain Flink runs the query", e);
        }
    }
}
