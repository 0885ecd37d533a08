package io.columnarkafka.planner.match;

/** The node kinds the stage can run on Arrow. */
public enum NodeKind {
    SCAN,
    CALC,
    SINK
}
