package io.columnarkafka.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.junit.jupiter.api.Test;

/** Failed runs are FAIL rows everywhere; medians and paired ratios skip the warm-up and failed runs. */
class ResultReportTest {

    @Test
    void aFailedRunIsAFailRowInEveryOutputAndPairedRatiosSkipTheWarmUp() {
        List<RunResult> results = new ArrayList<>();
        results.add(run(Variant.STOCK_JSON, 0, 1.0, 10.0, null));   // warm-up: (b)/(a) would be 100
        results.add(run(Variant.COLUMNAR, 0, 100.0, 5.0, null));
        results.add(run(Variant.STOCK_JSON, 1, 2.0, 10.0, null));
        results.add(run(Variant.COLUMNAR, 1, 1.0, 5.0, null));     // (b)/(a) 2.0, CPU 0.5
        results.add(run(Variant.COLUMNAR, 2, 4.0, 5.0, null));
        results.add(run(Variant.STOCK_JSON, 2, 2.0, 10.0, null));  // (b)/(a) 1.0 (run 4 s / 2 s: 0.5 as rows/s)
        results.add(RunResult.failed(spec(Variant.COLUMNAR), 3, "the run failed: boom"));
        results.add(run(Variant.STOCK_JSON, 3, 2.0, 10.0, "verifier: FAIL: 9 records"));

        ResultReport report = new ResultReport(results, Map.of(), "test", "shared machine", "0", "0",
                new LinkedHashMap<>(), 4096, true, 2, 1000, 2, TransactionNamingStrategy.INCREMENTING);
        String md = report.markdown();
        assertThat(md).contains("**FAIL: 2 run(s) failed**")
                .contains("**FAIL: the run failed: boom**")
                .contains("**FAIL: verifier: FAIL: 9 records**")
                .contains("0 (warm-up)");
        // rounds 1 and 2 pair; round 3 has no passed pair; round 0 is not counted.
        // Round 1: (b) 1 s vs (a) 2 s -> rows/s ratio 2.0; round 2: (b) 4 s vs (a) 2 s -> 0.5.
        assertThat(md).contains("| (b) / (a), object reuse off | 2 | 1.25 (0.50 – 2.00) | ≥ 1.50: **MISSED** | 0.50 (0.50 – 0.50) |");
        assertThat(report.csv().lines().filter(l -> l.contains("FAIL")).count()).isEqualTo(2);
        assertThat(report.csv().lines().count()).isEqualTo(results.size() + 1);
        assertThat(report.json()).contains("\"passed\": false").contains("\"status\": \"FAIL: the run failed: boom\"");
    }

    private static RunSpec spec(Variant variant) {
        return new RunSpec(variant, false, 1000, 4096, true, 2, 1000, TransactionNamingStrategy.INCREMENTING, 3,
                "localhost:9092", "t", Map.of(), null, "r");
    }

    private static RunResult run(Variant variant, int round, double wallSeconds, double cpuSeconds, String failure) {
        return new RunResult(spec(variant), round, failure, wallSeconds, Double.NaN, cpuSeconds, 1.0, 3, 0, 10, 20, 30,
                "", 0, "", 1000, 0, 0, 0, "OK");
    }
}
