package io.columnarkafka.bench;

import io.columnarkafka.flink.table.EdgeRows;
import io.columnarkafka.planner.PlannerOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a cell's optimized plan (EXPLAIN) shows of each planner option its variant of a same-run A/B set ({@link
 * VariantSpelling}), so the report states, per variant, that the cells ran with it rather than assuming so: {@code
 * edge-rows=VIEWS: rows=[views] on 2 of 2 edges}, or {@code not shown (the plan has no Arrow-to-rows edge)} where the
 * plan has no node the option decides. A plan that shows the other choice throws: the cell fails.
 */
public final class PlannerOptionsInPlan {
    private static final Pattern EDGE_ROWS = Pattern.compile("ArrowToRows\\(.*?rows=\\[(\\w+)]");
    private static final String LOCAL = "local=[";
    private static final String VECTORISED = LOCAL + "vectorised]";
    private static final String TURNED_OFF = LOCAL + "row view, not vectorised: "
            + PlannerOptions.VECTORISED_LOCAL_WINDOW_AGG.key() + " is false";

    private static final String VECTORISED_GROUP = "ColumnarLocalGroupAggregate(";
    private static final String GROUP_TURNED_OFF = "AGGREGATE_NOT_VECTORISED "
            + PlannerOptions.VECTORISED_LOCAL_GROUP_AGG.key() + " is false";

    private static final String COLUMNAR_WATERMARK = "watermark=[columnar]";
    private static final String PROBED_WATERMARK = "watermark=[row probe: ";
    private static final String WATERMARK_TURNED_OFF = PROBED_WATERMARK + PlannerOptions.COLUMNAR_WATERMARK.key()
            + " is false]";

    /** An edge before a Flink Calc: its reason is the Calc's (whole) or its projections' (split). */
    private static final Pattern CALC_EDGE =
            Pattern.compile("ArrowToRows\\(reason=\\[(?:EXPRESSION_NOT_TRANSLATED|CALC_NOT_EXACT) [^\\n]*");
    private static final String NOT_SPLIT = "; not split: ";
    private static final String SPLIT_TURNED_OFF = NOT_SPLIT + PlannerOptions.SPLIT_CALC.key() + " is false";

    /** A columnar calc running Flink's generated code for a call; an edge's reason when the option turned it off. */
    private static final String FLINK_CODE = "flinkCode=[";
    private static final String FLINK_CODE_TURNED_OFF = "not in the calc: " + PlannerOptions.FLINK_CODE_CALC.key()
            + " is false";

    /** A sink fed rows whose encode operator runs Flink's sink steps; with the option off, Flink's sink node. */
    private static final String ROW_SINK = "ColumnarRowSink(";

    /** A row sink's Calc item: taken in ({@code calc=[Calc(select=...)]}) or, where it was not, why. */
    private static final String ROW_SINK_CALC = "calc=[";
    private static final String CALC_NOT_TAKEN = ROW_SINK_CALC + "not taken: ";
    private static final String CALC_TURNED_OFF = CALC_NOT_TAKEN + PlannerOptions.ROW_SINK_CALC.key() + " is false]";

    /** What a clause says where the plan has no node its option decides, before the why. */
    private static final String NOT_SHOWN = "not shown ";

    private PlannerOptionsInPlan() {}

    /**
     * One clause per option of the variant ({@code plannerOptions}: relative key to value, in the order the clauses
     * take), {@code "; "} between them; empty for a variant without options.
     */
    public static String describe(Map<String, String> plannerOptions, String plan) {
        List<String> clauses = new ArrayList<>();
        for (Map.Entry<String, String> option : plannerOptions.entrySet()) {
            String setting = option.getKey() + "=" + option.getValue();
            String shown = switch (PlannerOptions.PREFIX + option.getKey()) {
                case "columnar-kafka.planner.edge-rows" -> edgeRows(setting, option.getValue(), plan);
                case "columnar-kafka.planner.local-window-agg.vectorised" ->
                        localWindowAgg(setting, Boolean.parseBoolean(option.getValue()), plan);
                case "columnar-kafka.planner.local-group-agg.vectorised" ->
                        localGroupAgg(setting, Boolean.parseBoolean(option.getValue()), plan);
                case "columnar-kafka.planner.watermark.columnar" ->
                        watermark(setting, Boolean.parseBoolean(option.getValue()), plan);
                case "columnar-kafka.planner.calc.split" ->
                        calcSplit(setting, Boolean.parseBoolean(option.getValue()), plan);
                case "columnar-kafka.planner.calc.flink-code" ->
                        calcFlinkCode(setting, Boolean.parseBoolean(option.getValue()), plan);
                case "columnar-kafka.planner.sink.row-head" ->
                        rowSinkHead(setting, Boolean.parseBoolean(option.getValue()), plan);
                case "columnar-kafka.planner.sink.row-calc" ->
                        rowSinkCalc(setting, Boolean.parseBoolean(option.getValue()), plan);
                default -> throw new IllegalStateException("no rule reads planner option " + option.getKey()
                        + " off the plan; add one to PlannerOptionsInPlan");
            };
            clauses.add(setting + ": " + shown);
        }
        return String.join("; ", clauses);
    }

    /** Whether a clause of {@link #describe} says the plan has no node its option decides. */
    public static boolean notShown(String clause) {
        return clause.contains(": " + NOT_SHOWN);
    }

    private static String edgeRows(String setting, String value, String plan) {
        String wanted = EdgeRows.valueOf(value.toUpperCase(Locale.ROOT)).name().toLowerCase(Locale.ROOT);
        Matcher m = EDGE_ROWS.matcher(plan);
        int edges = 0;
        int matching = 0;
        while (m.find()) {
            edges++;
            matching += m.group(1).equals(wanted) ? 1 : 0;
        }
        if (edges == 0) {
            return NOT_SHOWN + "(the plan has no Arrow-to-rows edge)";
        }
        if (matching != edges) {
            throw contradicted(setting, (edges - matching) + " of " + edges + " Arrow-to-rows edges are not rows=["
                    + wanted + "]", plan);
        }
        return "rows=[" + wanted + "] on " + edges + " of " + edges + " edge(s)";
    }

    private static String localWindowAgg(String setting, boolean vectorised, String plan) {
        int locals = count(plan, LOCAL);
        int turnedOff = count(plan, TURNED_OFF);
        if (locals == 0) {
            return NOT_SHOWN + "(the plan has no columnar local window aggregate)";
        }
        if (vectorised) {
            if (turnedOff > 0) {
                throw contradicted(setting, turnedOff + " local window aggregate(s) say the option is false", plan);
            }
            return "local=[vectorised] on " + count(plan, VECTORISED) + " of " + locals
                    + " columnar local window aggregate(s) (the rest row views for their shape)";
        }
        if (turnedOff != locals) {
            throw contradicted(setting, (locals - turnedOff) + " of " + locals
                    + " columnar local window aggregates are not row views turned off by the option", plan);
        }
        return "local=[row view, not vectorised: ... is false] on " + locals + " of " + locals
                + " columnar local window aggregate(s)";
    }

    /**
     * A vectorised local group aggregate shows as {@code ColumnarLocalGroupAggregate(}; one the option turned off as
     * Flink's node behind an edge whose reason says so.
     */
    private static String localGroupAgg(String setting, boolean vectorised, String plan) {
        int columnar = count(plan, VECTORISED_GROUP);
        int turnedOff = count(plan, GROUP_TURNED_OFF);
        if (vectorised ? turnedOff > 0 : columnar > 0) {
            throw contradicted(setting, (vectorised ? turnedOff + " edge(s) say the option is false"
                    : columnar + " vectorised local group aggregate(s)"), plan);
        }
        if (columnar + turnedOff == 0) {
            return NOT_SHOWN + "(the plan has no local group aggregate the option decides)";
        }
        return vectorised ? VECTORISED_GROUP + "...) shown " + columnar + " time(s)"
                : "AGGREGATE_NOT_VECTORISED ... is false shown " + turnedOff + " time(s)";
    }

    private static String watermark(String setting, boolean columnar, String plan) {
        int scans = count(plan, COLUMNAR_WATERMARK) + count(plan, PROBED_WATERMARK);
        if (scans == 0) {
            return NOT_SHOWN + "(the plan has no columnar scan with a watermark)";
        }
        int wanted = columnar ? count(plan, COLUMNAR_WATERMARK) : count(plan, WATERMARK_TURNED_OFF);
        if (wanted != scans) {
            throw contradicted(setting, (scans - wanted) + " of " + scans + " watermarked columnar scans do not show "
                    + (columnar ? COLUMNAR_WATERMARK : WATERMARK_TURNED_OFF), plan);
        }
        return (columnar ? COLUMNAR_WATERMARK : "watermark=[row probe: ... is false]") + " on " + scans + " of "
                + scans + " watermarked columnar scan(s)";
    }

    /**
     * A split Calc's edge names only its projections' reasons; a whole Calc's edge says why it was not split, the
     * option among the reasons.
     */
    private static String calcSplit(String setting, boolean split, String plan) {
        int edges = 0;
        int splitEdges = 0;
        int turnedOff = 0;
        Matcher m = CALC_EDGE.matcher(plan);
        while (m.find()) {
            edges++;
            splitEdges += m.group().contains(NOT_SPLIT) ? 0 : 1;
            turnedOff += m.group().contains(SPLIT_TURNED_OFF) ? 1 : 0;
        }
        if (edges == 0) {
            return NOT_SHOWN + "(the plan has no Arrow-to-rows edge before a Flink Calc)";
        }
        if (split) {
            if (turnedOff > 0) {
                throw contradicted(setting, turnedOff + " Calc edge(s) say the option is false", plan);
            }
            return "split on " + splitEdges + " of " + edges + " Calc edge(s) (the rest not split for their shape)";
        }
        if (turnedOff != edges) {
            throw contradicted(setting, (edges - turnedOff) + " of " + edges
                    + " Calc edges are not whole Calcs turned off by the option", plan);
        }
        return "not split: ... is false on " + edges + " of " + edges + " Calc edge(s)";
    }

    /**
     * A columnar calc that calls a user-defined function with Flink's generated code shows {@code flinkCode=[...]};
     * where the option turned that off, the edge before Flink's Calc names the option.
     */
    private static String calcFlinkCode(String setting, boolean inCalc, String plan) {
        int calcs = count(plan, FLINK_CODE);
        int turnedOff = count(plan, FLINK_CODE_TURNED_OFF);
        if (inCalc ? turnedOff > 0 : calcs > 0) {
            throw contradicted(setting, inCalc ? turnedOff + " edge(s) say the option is false"
                    : calcs + " columnar calc(s) run Flink's generated code", plan);
        }
        if (calcs + turnedOff == 0) {
            return NOT_SHOWN + "(the plan has no user-defined function call the option decides)";
        }
        return inCalc ? FLINK_CODE + "...] on " + calcs + " columnar calc(s)"
                : "not in the calc: ... is false shown " + turnedOff + " time(s)";
    }

    /**
     * With the option on, a sink fed rows shows {@code ColumnarRowSink(} where Flink's node adds only its steps (the
     * execution plan does not show the shapes that keep Flink's node, so none is "not shown" for certain); with it
     * off, no plan may show one.
     */
    private static String rowSinkHead(String setting, boolean rowHead, String plan) {
        int rowSinks = count(plan, ROW_SINK);
        if (!rowHead) {
            if (rowSinks > 0) {
                throw contradicted(setting, rowSinks + " ColumnarRowSink(s)", plan);
            }
            return "no ColumnarRowSink (Flink's sink node)";
        }
        return rowSinks == 0 ? NOT_SHOWN + "(the plan has no sink the row head takes)"
                : ROW_SINK + "...) shown " + rowSinks + " time(s)";
    }

    /**
     * With the option on, a row sink over Flink's Calc shows the Calc it took in ({@code calc=[Calc(...)]}) and none
     * says the option is false; with it off, none took one in, and each over a Calc says the option is why.
     */
    private static String rowSinkCalc(String setting, boolean takeCalc, String plan) {
        int notTaken = count(plan, CALC_NOT_TAKEN);
        int taken = count(plan, ROW_SINK_CALC) - notTaken;
        int turnedOff = count(plan, CALC_TURNED_OFF);
        if (takeCalc ? turnedOff > 0 : taken > 0) {
            throw contradicted(setting, takeCalc ? turnedOff + " row sink(s) say the option is false"
                    : taken + " row sink(s) took a Calc in", plan);
        }
        if (taken + turnedOff == 0) {
            return NOT_SHOWN + "(the plan has no row sink over a Calc the option decides)";
        }
        return takeCalc ? ROW_SINK_CALC + "Calc(...)] on " + taken + " row sink(s)"
                : CALC_TURNED_OFF.replace(PlannerOptions.ROW_SINK_CALC.key(), "...") + " on " + turnedOff
                        + " row sink(s)";
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    /** The failure, short for the report's FAIL row; the plan itself goes to the cell's log. */
    private static IllegalStateException contradicted(String setting, String what, String plan) {
        System.err.println(plan);
        return new IllegalStateException("the plan contradicts the variant's " + setting + ": " + what
                + " (the plan is in the cell's log)");
    }
}
