package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.AaControl;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The fixed-rate report's checkpoint-time section: per query, mini-batch setting and variant, the parts of the last
 * acknowledgement ({@link CheckpointPath}) with the paired per-round difference columnar − stock of each, then per
 * job vertex (by topological position, stock's and columnar's side by side) its slowest subtask's phases
 * ({@link CheckpointByVertex}); each figure the median over the counted rounds of the cell's p50.
 */
final class CheckpointTimeTables {
    /** A column: its heading and its figure of a cell's breakdown. */
    private record Column<T>(String name, ToDoubleFunction<T> figure) {}

    /** The parts of the last acknowledgement. */
    private static final List<Column<CheckpointPath>> PARTS = List.of(
            new Column<>("end to end", CheckpointPath::endToEndP50Ms),
            new Column<>("start delay", CheckpointPath::startDelayP50Ms),
            new Column<>("alignment", CheckpointPath::alignmentP50Ms),
            new Column<>("sync", CheckpointPath::syncP50Ms),
            new Column<>("async", CheckpointPath::asyncP50Ms),
            new Column<>("pre-barrier + rest", CheckpointPath::restP50Ms));

    /** A vertex's phases. */
    private static final List<Column<CheckpointByVertex>> PHASES = List.of(
            new Column<>("start delay", CheckpointByVertex::startDelayP50Ms),
            new Column<>("alignment", CheckpointByVertex::alignmentP50Ms),
            new Column<>("sync", CheckpointByVertex::syncP50Ms),
            new Column<>("async", CheckpointByVertex::asyncP50Ms),
            new Column<>("ack", CheckpointByVertex::ackP50Ms));

    private CheckpointTimeTables() {}

    /** The section, or nothing when no counted cell has the breakdown (an older result's cells). */
    static String markdown(List<CellResult> cells) {
        List<CellResult> counted = cells.stream()
                .filter(c -> c.round() > 0 && c.compared() && c.checkpointPath().checkpoints() > 0)
                .sorted(Comparator.comparing((CellResult c) -> c.spec().query()).thenComparing(c -> c.spec().miniBatch()))
                .toList();
        if (counted.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Where the checkpoint time goes\n\n");
        md.append("A checkpoint completes with its last acknowledgement, so its end-to-end time is the trigger-to-ack"
                + " time of the subtask that acknowledged last, which Flink's checkpoint statistics split into: start"
                + " delay (trigger to the barrier reaching the subtask: for a source, the trigger mail waiting in the"
                + " task's mailbox behind the step under way), alignment (first to last input's barrier), sync"
                + " (the operators' `snapshotState` only), async (writing the state) and what is left, pre-barrier +"
                + " rest: every operator's `prepareSnapshotPreBarrier`, which Flink times in no part (the columnar"
                + " encoder's send of its open batch, `KafkaSink`'s producer flush waiting for the acks of all"
                + " records sent), the hand-over to the async thread and the ack's way to the coordinator."
                + " Per cell the p50 over its counted checkpoints; here the median over the counted rounds, and the"
                + " paired per-round difference columnar − stock, median (min–max), ms. Last = the job vertex that"
                + " acknowledged last most often (0 = the sources' vertex) and its share of the checkpoints.\n\n");
        md.append("| query | mini-batch | last stock / col. |");
        PARTS.forEach(p -> md.append(' ').append(p.name).append(" stock / col. (col. − stock) |"));
        md.append("\n|---|---|---|").append("---:|".repeat(PARTS.size())).append('\n');
        for (List<List<CellResult>> pair : pairs(counted)) {
            List<CellResult> stock = pair.get(0);
            List<CellResult> columnar = pair.get(1);
            if (stock.isEmpty() && columnar.isEmpty()) {
                continue;
            }
            CellResult any = columnar.isEmpty() ? stock.get(0) : columnar.get(0);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s / %s |", any.spec().query().id(),
                    any.spec().miniBatch() ? "on" : "off", last(stock), last(columnar)));
            for (Column<CheckpointPath> part : PARTS) {
                md.append(' ').append(compared(stock, columnar, c -> part.figure.applyAsDouble(c.checkpointPath())))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append(extraVariants(counted));
        md.append("\nPer job vertex, its slowest subtask's p50 of each phase (ack = trigger to ack), stock / columnar,"
                + " ms:\n\n| query | mini-batch | # | task stock / columnar |");
        PHASES.forEach(p -> md.append(' ').append(p.name).append(" |"));
        md.append("\n|---|---|---:|---|").append("---:|".repeat(PHASES.size())).append('\n');
        for (List<List<CellResult>> pair : pairs(counted)) {
            List<CellResult> stock = pair.get(0);
            List<CellResult> columnar = pair.get(1);
            if (stock.isEmpty() || columnar.isEmpty()) {
                continue;
            }
            int vertices = Math.min(vertices(stock.get(0)).size(), vertices(columnar.get(0)).size());
            for (int v = 0; v < vertices; v++) {
                int index = v;
                md.append(String.format(Locale.ROOT, "| %s | %s | %d | `%s` / `%s` |", stock.get(0).spec().query().id(),
                        stock.get(0).spec().miniBatch() ? "on" : "off", v,
                        vertices(stock.get(0)).get(v).vertex().replace("`", "'"),
                        vertices(columnar.get(0)).get(v).vertex().replace("`", "'")));
                for (Column<CheckpointByVertex> phase : PHASES) {
                    ToDoubleFunction<CellResult> figure = c -> vertices(c).size() > index
                            ? phase.figure.applyAsDouble(vertices(c).get(index)) : Double.NaN;
                    md.append(' ').append(whole(NexmarkReport.median(stock, figure))).append(" / ")
                            .append(whole(NexmarkReport.median(columnar, figure))).append(" |");
                }
                md.append('\n');
            }
        }
        return md.append('\n').toString();
    }

    /**
     * The extra variants' parts of the last acknowledgement beside the default columnar variant's, with the paired
     * difference variant − columnar; nothing without extra variants.
     */
    private static String extraVariants(List<CellResult> counted) {
        List<Variant> extra = VariantReport.extraVariants(counted);
        if (extra.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\nThe extra variants against the default columnar variant, the same parts"
                + " (the A/A control `" + AaControl.CONTROL_ID + "`'s differences are the noise), columnar / variant"
                + " (variant − columnar), ms:\n\n| query | mini-batch | variant | last col. / var. |");
        PARTS.forEach(p -> md.append(' ').append(p.name).append(" |"));
        md.append("\n|---|---|---|---|").append("---:|".repeat(PARTS.size())).append('\n');
        for (List<CellResult> same : byPair(counted)) {
            List<CellResult> columnar = of(same, Variant.COLUMNAR);
            for (Variant variant : extra) {
                List<CellResult> cells = of(same, variant);
                if (cells.isEmpty()) {
                    continue;
                }
                md.append(String.format(Locale.ROOT, "| %s | %s | `%s` | %s / %s |", same.get(0).spec().query().id(),
                        same.get(0).spec().miniBatch() ? "on" : "off", variant.id(), last(columnar), last(cells)));
                for (Column<CheckpointPath> part : PARTS) {
                    md.append(' ').append(compared(columnar, cells,
                            c -> part.figure.applyAsDouble(c.checkpointPath()))).append(" |");
                }
                md.append('\n');
            }
        }
        return md.toString();
    }

    /** The counted cells grouped by (query, mini-batch), in their order. */
    private static List<List<CellResult>> byPair(List<CellResult> counted) {
        List<List<CellResult>> groups = new ArrayList<>();
        counted.stream().map(CheckpointTimeTables::pairKey).distinct().forEach(key ->
                groups.add(counted.stream().filter(c -> pairKey(c).equals(key)).toList()));
        return groups;
    }

    private static String pairKey(CellResult c) {
        return c.spec().query().id() + "/" + c.spec().miniBatch();
    }

    private static List<CellResult> of(List<CellResult> cells, Variant variant) {
        return cells.stream().filter(c -> c.spec().variant().equals(variant)).toList();
    }

    /** Per (query, mini-batch), in the cells' order: [stock cells, columnar cells]. */
    private static List<List<List<CellResult>>> pairs(List<CellResult> counted) {
        return byPair(counted).stream().map(same -> List.of(of(same, Variant.STOCK), of(same, Variant.COLUMNAR)))
                .toList();
    }

    private static List<CheckpointByVertex> vertices(CellResult cell) {
        return CheckpointByVertex.parse(cell.checkpointByVertex());
    }

    /** The most frequent last vertex of the cells' and its median share, e.g. {@code 1 (85 %)}. */
    private static String last(List<CellResult> cells) {
        if (cells.isEmpty()) {
            return "–";
        }
        int vertex = (int) NexmarkReport.median(cells, c -> c.checkpointPath().lastVertex());
        return String.format(Locale.ROOT, "%d (%.0f %%)", vertex,
                100 * NexmarkReport.median(cells, c -> c.checkpointPath().lastShare()));
    }

    /** {@code before / after (after − before, paired per round: median, min–max)}. */
    private static String compared(List<CellResult> stock, List<CellResult> columnar, ToDoubleFunction<CellResult> f) {
        double[] differences = pairedDifferences(stock, columnar, f);
        return String.format(Locale.ROOT, "%s / %s (%s)", whole(NexmarkReport.median(stock, f)),
                whole(NexmarkReport.median(columnar, f)), differences.length == 0 ? "–"
                        : String.format(Locale.ROOT, "%+.0f, %+.0f–%+.0f", NexmarkReport.median(differences),
                                NexmarkReport.min(differences), NexmarkReport.max(differences)));
    }

    /** Columnar − stock of {@code figure}, per round in which both cells passed. */
    static double[] pairedDifferences(List<CellResult> stock, List<CellResult> columnar,
                                      ToDoubleFunction<CellResult> figure) {
        List<Double> differences = new ArrayList<>();
        for (CellResult c : columnar) {
            stock.stream().filter(s -> s.round() == c.round()).findFirst()
                    .ifPresent(s -> differences.add(figure.applyAsDouble(c) - figure.applyAsDouble(s)));
        }
        return differences.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String whole(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }
}
