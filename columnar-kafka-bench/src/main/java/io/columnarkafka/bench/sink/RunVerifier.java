package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import io.columnarkafka.testkit.nexmark.BidIndex;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;

/**
 * Reads a run's topic back read_committed and checks it. DataStream variants: every row id exactly once
 * (pooled rows carry ids of their own, {@link PooledIds}) and every record's bytes equal to Flink's
 * {@code JsonRowDataSerializationSchema} of its row, run here as the oracle. SQL variants (random
 * datagen rows, no row id): exactly the inserted number of records and no value twice, by the random
 * 64-bit {@code auction} (two equal among millions would take odds of about 1e-7).
 */
final class RunVerifier {
    private static final int DATE_TIME = 5;
    private static final byte[] AUCTION = "{\"auction\":".getBytes(StandardCharsets.US_ASCII);

    /** The verdict of one run's topic. */
    record Outcome(long committedRecords, long duplicates, long missing, long parityMismatches, boolean passed,
                   String verdict) {
        static Outcome notWritten(String why) {
            return new Outcome(0, 0, 0, -1, true, why);
        }
    }

    private RunVerifier() {}

    static Outcome verify(String servers, RunSpec spec) throws Exception {
        if (!spec.variant().writesKafka()) {
            return Outcome.notWritten("n/a (no Kafka topic)");
        }
        TopicVerifier verifier = TopicVerifier.forTopic(servers, spec.topic()).readCommitted()
                .timeout(Duration.ofMinutes(10)).maxDetails(20);
        if (spec.variant().kind() == Variant.Kind.SQL) {
            TopicReport report = verifier.verifyUnique(RunVerifier::auctionOf);
            boolean counted = report.totalRecords() == spec.rows();
            boolean passed = counted && report.duplicateCount() == 0;
            return new Outcome(report.totalRecords(), report.duplicateCount(),
                    Math.max(0, spec.rows() - report.totalRecords()), -1, passed,
                    (passed ? "OK: " : "FAIL: ") + report.totalRecords() + " records (" + spec.rows()
                            + " inserted), " + report.duplicateCount() + " duplicate auction values; "
                            + report.verdict());
        }
        Parity parity = new Parity(spec);
        TopicReport report = verifier.verifyIds(0, Math.toIntExact(spec.rows()), value -> {
            long millis = BidIndex.ofJson(value);
            long row = spec.rowsArePooled() ? PooledIds.rowOf(millis, spec.poolRows()) : millis;
            parity.check(row, value);
            return row;
        });
        boolean passed = report.isExactlyOnce() && parity.mismatches == 0;
        String verdict = report.verdict() + String.format(Locale.ROOT, "; bytes: %s",
                parity.mismatches == 0 ? "every record equals Flink's JSON of its row"
                        : parity.mismatches + " records differ from Flink's JSON of their row, e.g. " + parity.example);
        return new Outcome(report.totalRecords(), report.duplicateCount(),
                report.missingCount() + report.unexpectedCount(), parity.mismatches, passed, verdict);
    }

    /** The {@code auction} value leading a Bid's JSON, as written by Flink's json format. */
    static long auctionOf(byte[] json) {
        if (json == null || json.length <= AUCTION.length
                || !Arrays.equals(json, 0, AUCTION.length, AUCTION, 0, AUCTION.length)) {
            throw new IllegalArgumentException("not a Bid's JSON: "
                    + (json == null ? "null" : new String(json, StandardCharsets.UTF_8)));
        }
        int p = AUCTION.length;
        boolean negative = json[p] == '-';
        if (negative) {
            p++;
        }
        long n = 0;
        for (; json[p] >= '0' && json[p] <= '9'; p++) {
            n = n * 10 - (json[p] - '0');
        }
        return negative ? n : -n;
    }

    /** Flink's JSON of each row the run wrote, compared with the record read back. */
    private static final class Parity {
        private final RunSpec spec;
        private final BidGenerator generator = new BidGenerator(RunSpec.SEED);
        private final JsonRowDataSerializationSchema flink;
        long mismatches;
        String example;

        Parity(RunSpec spec) throws Exception {
            this.spec = spec;
            this.flink = BidJson.flinkSerializer();
            BidJson.open(flink);
        }

        void check(long row, byte[] value) {
            if (row < 0 || row >= spec.rows()) {
                return; // the verifier reports it as unexpected
            }
            GenericRowData expected;
            if (spec.rowsArePooled()) {
                expected = generator.row(row % spec.poolRows());
                expected.setField(DATE_TIME, TimestampData.fromEpochMillis(PooledIds.dateTimeMillis(row, spec.poolRows())));
            } else {
                expected = generator.row(row);
            }
            byte[] flinkBytes = flink.serialize(expected);
            if (!Arrays.equals(flinkBytes, value)) {
                if (mismatches++ == 0) {
                    example = "row " + row + ": flink " + new String(flinkBytes, StandardCharsets.UTF_8)
                            + " / topic " + (value == null ? "null" : new String(value, StandardCharsets.UTF_8));
                }
            }
        }
    }
}
