package io.columnarkafka.bench.nexmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's steady-state part ({@link NexmarkReport} holds the rest): per query and mini-batch setting, job-time
 * and steady-state throughput side by side (medians of each variant's counted cells, the paired per-round ratio's
 * median, min and max), each variant's fixed seconds (job time − events / steady rate), its checkpoints' p50 in the
 * steady window ({@link CheckpointFigures#triggeredBetween}), and the geomeans of both ratios. Only pairs whose every
 * cell passed count, as in the throughput rows.
 */
final class SteadyStateReport {
    private final List<NexmarkReport.Row> rows;
    private final List<CellResult> cells;

    SteadyStateReport(List<NexmarkReport.Row> rows, List<CellResult> cells) {
        this.rows = rows;
        this.cells = cells;
    }

    /** One (query, mini-batch) pair: steady rates, their paired ratio and where each variant's job time goes. */
    record Row(NexmarkQuery query, boolean miniBatch, double jobRatio, double jobRatioMin, double jobRatioMax,
               double stockSteady, double columnarSteady, double ratio, double ratioMin, double ratioMax,
               double stockJobSeconds, double columnarJobSeconds, double stockFixed, double columnarFixed,
               String stockLimitedBy, String columnarLimitedBy, double stockSteadyCheckpointP50Ms,
               double columnarSteadyCheckpointP50Ms, int stockSteadyCheckpoints, int columnarSteadyCheckpoints,
               boolean ok) {}

    List<Row> rows() {
        List<Row> steady = new ArrayList<>();
        for (NexmarkReport.Row r : rows) {
            List<CellResult> stock = counted(r.query(), r.miniBatch(), Variant.STOCK);
            List<CellResult> columnar = counted(r.query(), r.miniBatch(), Variant.COLUMNAR);
            double[] ratios = NexmarkReport.pairedRatios(stock, columnar, CellResult::steadyEventsPerSecond);
            steady.add(new Row(r.query(), r.miniBatch(), r.ratio(), r.ratioMin(), r.ratioMax(),
                    NexmarkReport.median(stock, CellResult::steadyEventsPerSecond),
                    NexmarkReport.median(columnar, CellResult::steadyEventsPerSecond),
                    NexmarkReport.median(ratios), NexmarkReport.min(ratios), NexmarkReport.max(ratios),
                    NexmarkReport.median(stock, CellResult::jobSeconds),
                    NexmarkReport.median(columnar, CellResult::jobSeconds),
                    NexmarkReport.median(stock, CellResult::fixedSeconds),
                    NexmarkReport.median(columnar, CellResult::fixedSeconds),
                    limitedBy(stock), limitedBy(columnar), steadyCheckpointP50(stock), steadyCheckpointP50(columnar),
                    steadyCheckpoints(stock), steadyCheckpoints(columnar),
                    r.compared() && !Double.isNaN(NexmarkReport.median(ratios))));
        }
        return steady;
    }

    /** The counted cells of a pair that passed and whose steady rate is known. */
    private List<CellResult> counted(NexmarkQuery query, boolean mb, Variant variant) {
        return cells.stream().filter(c -> c.round() > 0 && !c.recovery() && c.spec().query() == query
                && c.spec().miniBatch() == mb && c.spec().variant().equals(variant) && c.ok()
                && !Double.isNaN(c.steadyEventsPerSecond())).toList();
    }

    /** The median over the cells of their steady-window checkpoint p50, of the cells that had one; NaN if none. */
    private static double steadyCheckpointP50(List<CellResult> cells) {
        return NexmarkReport.median(cells.stream().filter(c -> c.steadyCheckpoints().completed() > 0).toList(),
                c -> c.steadyCheckpoints().p50Ms());
    }

    /** The completed checkpoints the cells had in their steady windows, all together. */
    private static int steadyCheckpoints(List<CellResult> cells) {
        return cells.stream().mapToInt(c -> c.steadyCheckpoints().completed()).sum();
    }

    /** Which side limited the steady rate in the cells: read, written, or both (e.g. {@code read 1, written 1}). */
    private static String limitedBy(List<CellResult> cells) {
        long written = cells.stream().filter(c -> c.steady().limitedBy().equals("written")).count();
        long read = cells.size() - written;
        return read == 0 && written == 0 ? "–" : written == 0 ? "read" : read == 0 ? "written"
                : "read " + read + ", written " + written;
    }

    static double geomean(List<Row> rows) {
        return NexmarkReport.geomean(rows.stream().filter(Row::ok).mapToDouble(Row::ratio).toArray());
    }

    /** The headline's steady-state geomeans for the rows of one mini-batch setting. */
    static String geomeans(List<Row> part) {
        return String.format(Locale.ROOT, "stateless **%s**, stateful **%s**, all **%s**",
                NexmarkReport.twoDecimals(geomean(part.stream().filter(r -> !r.query.stateful).toList())),
                NexmarkReport.twoDecimals(geomean(part.stream().filter(r -> r.query.stateful).toList())),
                NexmarkReport.twoDecimals(geomean(part)));
    }

    /** The side-by-side table for the rows of one mini-batch setting. */
    static void appendTable(StringBuilder md, List<Row> part) {
        md.append("Job time against steady state (per query: the medians of the counted cells; ratios paired per"
                + " round, median (min–max); fixed s = job s − events / steady rate, what the job's time holds"
                + " beyond steady processing; limited by = the slower of the sources' read and the sinks' written"
                + " rate, which the steady rate is; steady ckpt p50 = the median of the cells' checkpoint p50 over the"
                + " checkpoints triggered in their steady read window, with how many there were in all, the like for"
                + " like of two jobs at different rates, as a job's first checkpoints pay for its start):\n\n");
        md.append("| query | ratio by job time | stock steady events/s | columnar steady events/s | ratio by steady"
                + " state | job s stock / col. | fixed s stock / col. | limited by stock / col. | steady ckpt p50 ms"
                + " stock / col. (checkpoints) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (Row r : part) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s |%n",
                    r.query.id(), ratio(r.jobRatio, r.jobRatioMin, r.jobRatioMax), count(r.stockSteady),
                    count(r.columnarSteady), ratio(r.ratio, r.ratioMin, r.ratioMax),
                    NexmarkReport.twoDecimals(r.stockJobSeconds), NexmarkReport.twoDecimals(r.columnarJobSeconds),
                    NexmarkReport.twoDecimals(r.stockFixed), NexmarkReport.twoDecimals(r.columnarFixed),
                    r.stockLimitedBy, r.columnarLimitedBy, steadyCheckpointCell(r)));
        }
        md.append('\n');
    }

    private static String ratio(double median, double min, double max) {
        return Double.isNaN(median) ? "–" : String.format(Locale.ROOT, "**%.2f** (%.2f–%.2f)", median, min, max);
    }

    /** The steady ckpt p50 column: both variants' p50 and, in brackets, how many checkpoints it is over. */
    private static String steadyCheckpointCell(Row r) {
        return String.format(Locale.ROOT, "%s / %s (%d / %d)", count(r.stockSteadyCheckpointP50Ms),
                count(r.columnarSteadyCheckpointP50Ms), r.stockSteadyCheckpoints, r.columnarSteadyCheckpoints);
    }

    private static String count(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }

    /** The JSON array {@code steady}: one object per row. */
    String json() {
        List<Row> steady = rows();
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < steady.size(); i++) {
            Row r = steady.get(i);
            json.append(String.format(Locale.ROOT, "    {\"query\": \"%s\", \"stateful\": %s, \"miniBatch\": %s,"
                            + " \"jobRatio\": %s, \"stockSteadyEventsPerSecond\": %s,"
                            + " \"columnarSteadyEventsPerSecond\": %s, \"steadyRatio\": %s, \"steadyRatioMin\": %s,"
                            + " \"steadyRatioMax\": %s, \"stockJobSeconds\": %s, \"columnarJobSeconds\": %s,"
                            + " \"stockFixedSeconds\": %s, \"columnarFixedSeconds\": %s, \"stockLimitedBy\": \"%s\","
                            + " \"columnarLimitedBy\": \"%s\", \"stockSteadyCheckpointP50Ms\": %s,"
                            + " \"columnarSteadyCheckpointP50Ms\": %s, \"stockSteadyCheckpoints\": %d,"
                            + " \"columnarSteadyCheckpoints\": %d, \"ok\": %s}%s%n",
                    r.query.id(), r.query.stateful, r.miniBatch, NexmarkReport.num(r.jobRatio),
                    NexmarkReport.num(r.stockSteady), NexmarkReport.num(r.columnarSteady), NexmarkReport.num(r.ratio),
                    NexmarkReport.num(r.ratioMin), NexmarkReport.num(r.ratioMax),
                    NexmarkReport.num(r.stockJobSeconds), NexmarkReport.num(r.columnarJobSeconds),
                    NexmarkReport.num(r.stockFixed), NexmarkReport.num(r.columnarFixed), r.stockLimitedBy,
                    r.columnarLimitedBy, NexmarkReport.num(r.stockSteadyCheckpointP50Ms),
                    NexmarkReport.num(r.columnarSteadyCheckpointP50Ms), r.stockSteadyCheckpoints,
                    r.columnarSteadyCheckpoints, r.ok, i + 1 < steady.size() ? "," : ""));
        }
        return json.append("  ]").toString();
    }
}
