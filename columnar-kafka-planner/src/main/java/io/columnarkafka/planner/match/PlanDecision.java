package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.EdgeRows;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.calcite.rel.RelNode;

/**
 * The one decision for a query's physical plan: a {@link NodeDecision} per node, inputs before consumers.
 * The translator builds from it and asks nothing else.
 */
public final class PlanDecision {
    private final Map<RelNode, NodeDecision> byNode = new IdentityHashMap<>();
    private final List<NodeDecision> inOrder = new ArrayList<>();
    /** How many nodes read each node (a node read by several is shared: a united scan, a reused sub-plan). */
    private final Map<RelNode, Integer> consumers = new IdentityHashMap<>();
    private final EdgeRows edgeRows;

    PlanDecision(EdgeRows edgeRows) {
        this.edgeRows = edgeRows;
    }

    void add(NodeDecision decision) {
        byNode.put(decision.node(), decision);
        inOrder.add(decision);
    }

    /** Replaces the decision for {@code decision.node()}, in its place. */
    void replace(NodeDecision decision) {
        NodeDecision old = of(decision.node());
        byNode.put(decision.node(), decision);
        inOrder.set(inOrder.indexOf(old), decision);
    }

    /** Counts one more node reading {@code input}. */
    void consumed(RelNode input) {
        consumers.merge(input, 1, Integer::sum);
    }

    /** How many nodes of the plan read {@code node}. */
    int consumers(RelNode node) {
        return consumers.getOrDefault(node, 0);
    }

    boolean has(RelNode node) {
        return byNode.containsKey(node);
    }

    /** The decision for {@code node} (a node of the plan this decision was made for). */
    public NodeDecision of(RelNode node) {
        NodeDecision decision = byNode.get(node);
        if (decision == null) {
            throw new IllegalArgumentException("no decision for " + node.getRelTypeName() + ": not in the plan");
        }
        return decision;
    }

    /** What every Arrow-to-rows edge of the plan hands the Flink node after it. */
    public EdgeRows edgeRows() {
        return edgeRows;
    }

    /** True when some node runs columnar. */
    public boolean anyColumnar() {
        return inOrder.stream().anyMatch(NodeDecision::isColumnar);
    }

    public List<NodeDecision> decisions() {
        return Collections.unmodifiableList(inOrder);
    }

    /** One line per node, inputs first. */
    public String describe() {
        return inOrder.stream().map(NodeDecision::describe).collect(Collectors.joining("\n"));
    }
}
