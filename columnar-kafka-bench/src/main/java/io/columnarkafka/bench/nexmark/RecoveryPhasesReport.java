package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The recovery report's breakdown of recovery time into {@link RecoveryPhases}: per recovery query and phase the
 * medians of stock's and columnar's counted cells and the median of the paired per-round differences (columnar −
 * stock: where columnar spends more), the same for each extra variant against columnar (variant − columnar), then
 * every cell's phases and its per-task restart times.
 */
final class RecoveryPhasesReport {
    private final List<CellResult> recovery;

    RecoveryPhasesReport(List<CellResult> cells) {
        this.recovery = cells.stream().filter(c -> c.recovery() && c.ok() && c.recoveryPhases() != null).toList();
    }

    /**
     * Per query, variant and phase: the baseline's median, the variant's median and the median of the paired
     * differences variant − baseline (ms; NaN where unpaired). The baseline is stock for columnar, columnar for an
     * extra variant.
     */
    record PhaseRow(NexmarkQuery query, Variant variant, String phase, double baseline, double median,
                    double difference, int pairs) {}

    /** Columnar against stock. */
    List<PhaseRow> rows() {
        return rows(Variant.STOCK, List.of(Variant.COLUMNAR));
    }

    /** Each extra variant against columnar. */
    List<PhaseRow> extraRows() {
        return rows(Variant.COLUMNAR, VariantReport.extraVariants(recovery));
    }

    private List<PhaseRow> rows(Variant baseline, List<Variant> variants) {
        List<PhaseRow> rows = new ArrayList<>();
        for (NexmarkQuery query : recovery.stream().map(c -> c.spec().query()).distinct().sorted().toList()) {
            List<CellResult> base = cells(query, baseline);
            for (Variant variant : variants) {
                List<CellResult> measured = cells(query, variant);
                for (String phase : RecoveryPhases.NAMES) {
                    List<Double> differences = new ArrayList<>();
                    for (CellResult c : measured) {
                        base.stream().filter(b -> b.round() == c.round()).findFirst().ifPresent(
                                b -> differences.add((double) (ms(c, phase) - ms(b, phase))));
                    }
                    rows.add(new PhaseRow(query, variant, phase, NexmarkReport.median(base, c -> ms(c, phase)),
                            NexmarkReport.median(measured, c -> ms(c, phase)),
                            NexmarkReport.median(differences.stream().mapToDouble(Double::doubleValue).toArray()),
                            differences.size()));
                }
            }
        }
        return rows;
    }

    void append(StringBuilder md) {
        if (recovery.isEmpty()) {
            return;
        }
        md.append("### Recovery time in phases\n\n");
        md.append("From the kill to caught up, each phase from the end of the one before (they add up to the"
                + " caught-up time): detect = the kill to the job manager's failure record (connection-loss: the"
                + " heartbeat RPCs to the dead process refused; heartbeat-timeout: none answered in time);"
                + " restartDelay = to the first new attempt created (old attempts cancelled, the restart strategy's"
                + " delay); schedule = to the last new attempt deploying (slots from the spare TaskManager); deploy ="
                + " to the last initializing (task submitted, thread and class loader); open = to the last running"
                + " (state restore and every operator's open: source reader, planner-stage operators, Arrow"
                + " allocators and codec plans, the Kafka sink's writer and transaction recovery, class loading and"
                + " JIT in the spare's cold JVM); firstRead = to the restarted sources' first reported position"
                + " (negative when they read before the last task ran); catchUp = to the caught-up position: the"
                + (recovery.get(0).spec().fixedRate()
                        ? " failure position plus the input written since the kill (back at the live input)."
                        : " failure position read again.")
                + " From Flink's REST timestamps and the harness's samples of the sources' positions (polled every 5 ms, reported by the TaskManagers every 10 ms). Δ = median of the paired"
                + " per-round differences, columnar − stock (positive: columnar slower in that phase).\n\n");
        md.append("| query | phase | stock ms | columnar ms | Δ ms (pairs) |\n|---|---|---:|---:|---:|\n");
        for (PhaseRow r : rows()) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", r.query().id(), r.phase(),
                    whole(r.baseline()), whole(r.median()), difference(r)));
        }
        List<PhaseRow> extra = extraRows();
        if (!extra.isEmpty()) {
            md.append("\nThe extra variants against columnar (Δ = median of the paired per-round differences,"
                    + " variant − columnar; the A/A control's is what the run's noise makes of no change):\n\n"
                    + "| query | variant | phase | columnar ms | variant ms | Δ ms (pairs) |\n"
                    + "|---|---|---|---:|---:|---:|\n");
            for (PhaseRow r : extra) {
                md.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %s |%n", r.query().id(),
                        r.variant().id(), r.phase(), whole(r.baseline()), whole(r.median()), difference(r)));
            }
        }
        md.append("\nEvery recovery cell (ms; detection kind):\n\n| query | round | variant | detection | ")
                .append(String.join(" | ", RecoveryPhases.NAMES)).append(" | total |\n|---|---:|---|---|")
                .append("---:|".repeat(RecoveryPhases.NAMES.length + 1)).append('\n');
        for (CellResult c : recovery) {
            RecoveryPhases p = c.recoveryPhases();
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %,d |%n", c.spec().query().id(),
                    c.round(), c.spec().variant().id(), p.detection(),
                    p.byName().values().stream().map(v -> String.format(Locale.ROOT, "%,d", v))
                            .collect(Collectors.joining(" | ")), p.total()));
        }
        md.append("\nPer task, seconds after the kill when its subtasks' new attempts were last deploying,"
                + " initializing and running (open = running − initializing); then the open phase by the spare"
                + " TaskManager's log, ms after the first task initializing: Arrow's root allocator initialized,"
                + " the columnar source's background Arrow warm-up done, the last source reader created, the committer resuming a restored transaction, the writer"
                + " aborting lingering transactions, the last split added, the last task running (– no such"
                + " line):\n\n");
        for (CellResult c : recovery) {
            md.append("- ").append(c.spec().query().id()).append(" round ").append(c.round()).append(' ')
                    .append(c.spec().variant().id()).append(": ")
                    .append(c.restartByTask().isEmpty() ? "–" : "`" + c.restartByTask() + "`")
                    .append(c.openSteps().isEmpty() ? "" : "; open steps: `" + c.openSteps() + "`").append('\n');
        }
        md.append('\n');
    }

    private List<CellResult> cells(NexmarkQuery query, Variant variant) {
        return recovery.stream().filter(c -> c.spec().query() == query && c.spec().variant().equals(variant)).toList();
    }

    private static long ms(CellResult cell, String phase) {
        Map<String, Long> phases = cell.recoveryPhases().byName();
        return Objects.requireNonNull(phases.get(phase), phase);
    }

    private static String difference(PhaseRow r) {
        return r.pairs() == 0 ? "–" : String.format(Locale.ROOT, "%+,.0f (%d)", r.difference(), r.pairs());
    }

    private static String whole(double ms) {
        return Double.isNaN(ms) ? "–" : String.format(Locale.ROOT, "%,.0f", ms);
    }
}
