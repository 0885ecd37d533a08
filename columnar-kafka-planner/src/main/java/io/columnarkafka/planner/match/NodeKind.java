package io.columnarkafka.planner.match;

/** The node kinds the stage can run on Arrow. */
public enum NodeKind {
    SCAN,
    CALC,
    /** Flink's mini-batch assigner, which forwards elements unread and only emits watermarks. */
    MINI_BATCH_ASSIGNER,
    SINK
}
