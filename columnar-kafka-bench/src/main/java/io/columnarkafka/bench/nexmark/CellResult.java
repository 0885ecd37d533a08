package io.columnarkafka.bench.nexmark;

import java.util.Properties;

/**
 * One cell's measurements (from its JVM's result file) and its output check.
 *
 * @param round 0 for the uncounted warm-up round, then 1, 2, ...; -1 for a recovery run
 * @param verdict OK, or FAIL with the reason (output differing from stock, job failure)
 */
record CellResult(CellSpec spec, int round, double jobSeconds, double cpuSeconds, CheckpointFigures checkpoints,
                  String sinkPath, String sourceConnector, OutputDigest output, String verdict,
                  double restartSeconds, double recoverySeconds, long recordsReplayed) {

    static CellResult of(CellSpec spec, int round, Properties p, OutputDigest output, String verdict) {
        return new CellResult(spec, round,
                Double.parseDouble(p.getProperty("jobSeconds")),
                Double.parseDouble(p.getProperty("cpuSeconds")),
                CheckpointFigures.load(p),
                p.getProperty("sinkPath"),
                p.getProperty("sourceConnector"),
                output, verdict,
                Double.parseDouble(p.getProperty("restartSeconds", "NaN")),
                Double.parseDouble(p.getProperty("recoverySeconds", "NaN")),
                Long.parseLong(p.getProperty("recordsReplayed", "-1")));
    }

    static CellResult failed(CellSpec spec, int round, String reason) {
        return new CellResult(spec, round, Double.NaN, Double.NaN, new CheckpointFigures(0, 0, 0, 0, 0, 0, 0),
                "", spec.variant().source, new OutputDigest(0, ""), "FAIL: " + reason, Double.NaN, Double.NaN, -1);
    }

    boolean ok() {
        return verdict.equals("OK");
    }

    double eventsPerSecond() {
        return spec.events() / jobSeconds;
    }

    double cpuSecondsPerMillionEvents() {
        return cpuSeconds * 1e6 / spec.events();
    }
}
