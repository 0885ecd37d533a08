package io.columnarkafka.planner;

/** What {@link ColumnarSql#install} did. */
public enum InstallStatus {
    /** The stage was appended to the environment's stream optimizer. */
    INSTALLED,
    /** The environment's optimizer already had the stage. */
    ALREADY_INSTALLED,
    /** Flink's planner classes are hidden (the planner loader): plain Flink runs the queries. */
    PLANNER_NOT_VISIBLE,
    /** A batch-mode environment: plain Flink runs the queries. */
    NOT_STREAMING
}
