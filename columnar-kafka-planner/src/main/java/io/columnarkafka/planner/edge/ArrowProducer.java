package io.columnarkafka.planner.edge;

/**
 * A columnar physical node whose exec node emits Arrow batches, so an {@link StreamPhysicalArrowToRows} edge may
 * follow it: the edge's exec node takes that exec node's id.
 *
 * <p>Why: Flink numbers a plan's exec nodes in the order it makes them, inputs first, and with generated uids
 * ({@code table.exec.uid.generation}) an operator's uid is its node's number and kind ({@code 4_group-aggregate}).
 * An edge numbered on its own would shift the number, and so the uid, of every Flink node after it, and the state
 * of a savepoint of Flink's own plan (its joins, aggregates, the Kafka sink) would map to no operator of the columnar
 * plan. Sharing its input's number, the edge leaves Flink's nodes theirs; its own uid ({@code 2_arrow-to-rows}) stays
 * unique by its kind.
 */
public interface ArrowProducer {
    /** The id of the exec node this node was translated into. */
    int execNodeId();
}
