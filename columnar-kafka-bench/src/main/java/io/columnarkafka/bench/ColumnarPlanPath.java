package io.columnarkafka.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an optimized plan (EXPLAIN's "Optimized Execution Plan") shows of the columnar planner stage: which columnar
 * nodes it holds and how many {@code ArrowToRows} edges hand batches to Flink's row operators, so that a cell that
 * fell back to rows cannot pass as columnar.
 */
public final class ColumnarPlanPath {
    /** The columnar nodes the stage makes, in the order a plan's description lists them. */
    private static final List<String> NODES = List.of("ColumnarScan", "ColumnarMiniBatchAssigner", "ColumnarCalc",
            "ColumnarExpand", "ColumnarLocalWindowAggregate", "ColumnarLocalGroupAggregate", "ColumnarSink",
            "ColumnarRowSink");
    private static final Pattern EDGE_ROWS = Pattern.compile("ArrowToRows\\(.*, rows=\\[(\\w+)]");
    private static final Pattern COLUMNAR_NODE = Pattern.compile("\\bColumnar\\w+\\(");

    private ColumnarPlanPath() {}

    /**
     * The columnar nodes and edges the plan holds, e.g. {@code plan: ColumnarScan+ColumnarCalc+ColumnarSink} (fully
     * columnar), {@code plan: ColumnarScan+ArrowToRows x1} or {@code plan:
     * ColumnarScan+ColumnarMiniBatchAssigner+ColumnarCalc+ArrowToRows x2 (VIEWS rows)}; a plan with more than one
     * {@code ColumnarScan} (branches that do not share one) says how many: {@code ColumnarScan x2}.
     */
    public static String describe(String plan) {
        List<String> nodes = new ArrayList<>();
        for (String node : NODES) {
            if (plan.contains(node + "(")) {
                nodes.add(node);
            }
        }
        int scans = occurrences(plan, "ColumnarScan(");
        if (scans > 1) {
            nodes.set(0, "ColumnarScan x" + scans);
        }
        int edges = edges(plan);
        Matcher rows = EDGE_ROWS.matcher(plan);
        return "plan: " + (nodes.isEmpty() ? "no columnar node" : String.join("+", nodes))
                + (edges > 0 ? "+ArrowToRows x" + edges + (rows.find() ? " (" + rows.group(1) + " rows)" : "") : "");
    }

    /** The columnar nodes in the plan, each occurrence counted. */
    public static int columnarNodes(String plan) {
        int nodes = 0;
        for (Matcher m = COLUMNAR_NODE.matcher(plan); m.find(); ) {
            nodes++;
        }
        return nodes;
    }

    /** The {@code ArrowToRows} edges in the plan. */
    public static int edges(String plan) {
        return occurrences(plan, "ArrowToRows(");
    }

    private static int occurrences(String plan, String text) {
        return plan.split(Pattern.quote(text), -1).length - 1;
    }
}
