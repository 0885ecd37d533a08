package io.columnarkafka.planner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How {@link ColumnarSql} tells Flink's visible planner from the planner loader's hidden one. */
class PlannerVisibilityTest {

    @Test
    void thePlannerJarOnTheClassPathIsVisible() {
        assertThat(ColumnarSql.visiblePlanner(ColumnarSql.class.getClassLoader())).isNotNull();
    }

    /** A class loader that sees no Flink class stands for the loader's: it hides the planner the same way. */
    @Test
    void aHiddenPlannerIsReportedWithWhatToDo() {
        ClassLoader bootstrapOnly = new ClassLoader(null) {};
        assertThat(ColumnarSql.visiblePlanner(bootstrapOnly)).isNull();
        assertThat(ColumnarSql.PLANNER_HIDDEN).contains("flink-table-planner-loader")
                .contains("opt/flink-table-planner_2.12-2.2.1.jar").contains("docs/planner.md");
    }
}
