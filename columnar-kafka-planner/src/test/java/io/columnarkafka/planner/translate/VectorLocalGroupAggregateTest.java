package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.table.VectorLocalGroupAggOperator;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.arrow.RowKindVector;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.operators.bundle.MapBundleOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.data.util.RowDataUtil;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * The vectorised local group aggregate ({@link VectorLocalGroupAggOperator}) on batches against Flink's own local
 * group aggregate ({@link MapBundleOperator} with {@code MiniBatchLocalGroupAggFunction} and its generated handler,
 * as Flink's planner builds it for the same query without the stage) on the same rows one at a time: the oracle.
 * Seeded scripts of batches (some with a selection, as a columnar filter leaves them; null keys and values, true
 * and false filters (Flink's planner makes a filter {@code IS TRUE(...)}, never null); BIGINT and INT values at the
 * edges so sums wrap; empty, multi-byte and non-BMP strings as keys and values),
 * watermarks and checkpoint barriers between batches, and the end of input drive both. Flink's operator is fed row
 * by row, so each of its flushes is seen where it happens; the vectorised operator's output of each step is cut
 * at the same places, and each flush must hold the same rows (the order within a flush is the operators' own: see
 * {@link VectorLocalGroupAggOperator}). A small bundle size ends bundles inside batches, at the row Flink's count
 * trigger fires on.
 */
class VectorLocalGroupAggregateTest {
    private static final RowKind[] KINDS = {RowKind.INSERT, RowKind.INSERT, RowKind.UPDATE_AFTER,
        RowKind.UPDATE_AFTER, RowKind.UPDATE_AFTER, RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_BEFORE,
        RowKind.UPDATE_BEFORE, RowKind.DELETE};
    private static final String[] STRINGS = {"", "a", "b", "ab", "é", "日本", "a\u0000", "\uD834\uDD1E",
        "x\uD834\uDD1Ey", "long string value 0123"};

    /** Nexmark q17's shape: per (BIGINT, VARCHAR) key, counts with filters, then MIN, MAX, AVG, SUM of a BIGINT. */
    @Test
    void q17sShapeCountsWithFiltersAndBigintValuesPerBigintAndStringKey() throws Exception {
        assertSameOutput("k BIGINT, s STRING, n BIGINT, n1 BIGINT, n2 BIGINT, n3 BIGINT, lo BIGINT, hi BIGINT,"
                + " av BIGINT, sm BIGINT", "SELECT k, s, COUNT(*), COUNT(*) FILTER (WHERE b < 0),"
                + " COUNT(*) FILTER (WHERE b >= 0 AND b < 1000), COUNT(*) FILTER (WHERE b >= 1000), MIN(b), MAX(b),"
                + " AVG(b), SUM(b) FROM keyed GROUP BY k, s", 12, 37, 40, 3000);
    }

    /**
     * INT keys and values, COUNT(col), filters on a nullable BOOLEAN column ({@code IS TRUE(flag)}), and SUM beside
     * AVG of the same column, which Flink's planner reduces to {@code $SUM0} and COUNT.
     */
    @Test
    void intFunctionsSumBesideAverageAndFiltersPerIntKey() throws Exception {
        assertSameOutput("i INT, nb BIGINT, ns BIGINT, si INT, sb BIGINT, li INT, hi INT, ai INT, ab BIGINT",
                "SELECT i, COUNT(b), COUNT(s) FILTER (WHERE flag), SUM(i), SUM(b) FILTER (WHERE flag),"
                        + " MIN(i) FILTER (WHERE flag), MAX(i), AVG(i), AVG(b) FILTER (WHERE flag) FROM keyed"
                        + " GROUP BY i", 0, 23, 40, 2000);
    }

    /**
     * Nexmark q16's shape: per BIGINT key, MAX and MIN of a VARCHAR (null, empty, multi-byte and non-BMP values;
     * with a FILTER too), counts with filters, and COUNT(DISTINCT ...) of an INT and of a BIGINT, several with
     * filters (on a nullable BOOLEAN too) sharing each column: Flink's local accumulator per distinct column is a
     * MapView of the values (null among them) to the bits of the calls that saw them.
     */
    @Test
    void q16sShapeStringMaxAndMinAndDistinctCountsWithFilters() throws Exception {
        assertSameOutput("k BIGINT, mx STRING, mn STRING, n BIGINT, n1 BIGINT, d BIGINT, d1 BIGINT, d2 BIGINT,"
                + " d3 BIGINT, db BIGINT, db1 BIGINT", "SELECT k, MAX(s), MIN(s) FILTER (WHERE b < 0), COUNT(*),"
                + " COUNT(*) FILTER (WHERE b < 0), COUNT(DISTINCT i), COUNT(DISTINCT i) FILTER (WHERE b < 0),"
                + " COUNT(DISTINCT i) FILTER (WHERE b >= 0 AND b < 1000), COUNT(DISTINCT i) FILTER (WHERE flag),"
                + " COUNT(DISTINCT b) FILTER (WHERE flag), COUNT(DISTINCT b) FROM keyed GROUP BY k", 5, 37, 40, 1500);
    }

    /**
     * Nexmark q15's shape: per VARCHAR key, COUNT(DISTINCT ...) of a BIGINT of few values (so values repeat within
     * and across batches and flushes), with and without filters, beside counts.
     */
    @Test
    void q15sShapeDistinctCountsOfFewValuesPerStringKey() throws Exception {
        assertSameOutput("s STRING, n BIGINT, d BIGINT, d1 BIGINT, d2 BIGINT, n2 BIGINT", "SELECT s, COUNT(*),"
                + " COUNT(DISTINCT k), COUNT(DISTINCT k) FILTER (WHERE b < 0), COUNT(DISTINCT k) FILTER (WHERE flag),"
                + " COUNT(*) FILTER (WHERE flag) FROM keyed GROUP BY s", 9, 29, 40, 1500);
    }

    /**
     * COUNT(DISTINCT ...) of a VARCHAR (null, empty, multi-byte, non-BMP and NUL-holding values), with and without
     * filters, beside one of an INT and a MAX of the same VARCHAR, per BIGINT key, bundles ending inside batches:
     * Flink's local accumulator is a MapView of the input's strings (copied: {@code BinaryStringData}) to their bits.
     */
    @Test
    void distinctCountsOfStringsWithFilters() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, d BIGINT, d1 BIGINT, d2 BIGINT, mx STRING, di BIGINT,"
                + " n BIGINT", "SELECT k, COUNT(DISTINCT s), COUNT(DISTINCT s) FILTER (WHERE b < 0),"
                + " COUNT(DISTINCT s) FILTER (WHERE flag), MAX(s), COUNT(DISTINCT i), COUNT(*) FROM keyed GROUP BY k",
                5, 37, 40, 1500);
        assertThat(occurrences(compared, "BinaryStringData:")).as("distinct strings compared").isGreaterThan(10_000);
        assertThat(occurrences(compared, "null=")).as("distinct nulls compared").isGreaterThan(2000);
    }

    /**
     * COUNT(DISTINCT ...) of a VARCHAR of 40 values per INT key of about 2,000 values, Flink's default-sized
     * bundles: the distinct values' table and byte pool grow, and flushes hold many groups.
     */
    @Test
    void distinctCountsOfStringsInManyGroups() throws Exception {
        List<String> compared = assertSameOutput("i INT, d BIGINT, d1 BIGINT, n BIGINT", "SELECT i, COUNT(DISTINCT s),"
                + " COUNT(DISTINCT s) FILTER (WHERE flag), COUNT(*) FROM keyed GROUP BY i", 5000, 50_000, 600,
                20_000);
        assertThat(occurrences(compared, "BinaryStringData:")).as("distinct strings compared").isGreaterThan(100_000);
    }

    /** A COUNT(DISTINCT ...) of a VARCHAR, with a FILTER too, is planned vectorised, its calls named. */
    @Test
    void aDistinctCountOfStringsIsPlannedVectorised() {
        String insert = "INSERT INTO results SELECT k, COUNT(DISTINCT s), COUNT(DISTINCT s) FILTER (WHERE flag)"
                + " FROM keyed GROUP BY k";
        TableEnvironment tEnv = tEnv(true, "k BIGINT, d BIGINT, d1 BIGINT", 50_000);
        String explained = ColumnarSql.explain(tEnv, insert);
        assertThat(explained).as(explained)
                .containsPattern("ColumnarLocalGroupAggregate\\(.*local=\\[vectorised\\]")
                .containsPattern("columnar LocalGroupAggregate: vectorised keys=\\[\\$0\\], aggregates=\\["
                        + "COUNT\\(DISTINCT \\$(\\d+)\\), COUNT\\(DISTINCT \\$\\1\\) FILTER \\$\\d+\\]")
                .doesNotContain("ArrowToRows(", "AGGREGATE_NOT_VECTORISED");
        VectorLocalWindowAggregateTest.localAggregate(tEnv, insert, VectorLocalGroupAggOperator.class);
    }

    /** No grouping keys: one group per flush. */
    @Test
    void withoutKeys() throws Exception {
        assertSameOutput("n BIGINT, sb BIGINT, hi INT, ab BIGINT", "SELECT COUNT(*), SUM(b), MAX(i), AVG(b)"
                + " FROM keyed", 0, 41, 40, 150);
    }

    /** Many keys, Flink's default-sized bundles (flushed on watermarks and barriers): the hash table grows. */
    @Test
    void manyKeysGrowTheTable() throws Exception {
        assertSameOutput("k BIGINT, s STRING, n BIGINT, sb BIGINT", "SELECT k, s, COUNT(*), SUM(b) FROM keyed"
                + " GROUP BY k, s", 200_000, 50_000, 400, 20_000);
    }

    /**
     * Over a changelog (a debezium-json scan, its batches carrying each row's kind): Flink's retracting functions,
     * COUNT(*) (Flink's input count), COUNT(col), SUM of a BIGINT and an INT (a sum and a count each), and AVG, per
     * BIGINT key; each UPDATE_BEFORE and DELETE row retracted.
     */
    @Test
    void overAChangelogCountsSumsAndAveragesRetract() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, n BIGINT, nb BIGINT, sb BIGINT, si INT, ab BIGINT",
                "SELECT k, COUNT(*), COUNT(b), SUM(b), SUM(i), AVG(i) FROM changed GROUP BY k", 12, 37, 40, 3000);
        assertThat(occurrences(compared, ", -")).as("negative sums and counts compared").isGreaterThan(1000);
    }

    /**
     * Over a changelog, FILTERs on every kind of call (a nullable BOOLEAN's {@code IS TRUE(flag)} too) and no COUNT(*)
     * among the calls, so Flink appends its input count after them; SUM beside AVG of the same INT; per INT key,
     * bundles ending inside batches.
     */
    @Test
    void overAChangelogFilteredCallsAndTheAppendedInputCount() throws Exception {
        String insert = "SELECT i, SUM(b) FILTER (WHERE flag), COUNT(s) FILTER (WHERE b < 0), SUM(i), AVG(i),"
                + " AVG(b) FILTER (WHERE b >= 0) FROM changed GROUP BY i";
        String columns = "i INT, sb BIGINT, ns BIGINT, si INT, ai INT, ab BIGINT";
        String explained = ColumnarSql.explain(tEnv(true, columns, 23), "INSERT INTO results " + insert);
        assertThat(explained).as(explained).containsPattern("columnar LocalGroupAggregate: vectorised keys=\\[\\$0\\],"
                + " aggregates=\\[.*, COUNT\\(\\*\\)\\], retracting by \\$\\d+");
        assertSameOutput(columns, insert, 0, 23, 40, 2000);
    }

    /**
     * Over a changelog, COUNT(DISTINCT ...) (Flink's distinct accumulator consuming retractions): one call of an INT
     * (its map's values Long counts of rows, down to 0 and below within a flush, a value whose count is back at 0
     * gone from the map) and three of a VARCHAR with FILTERs (a {@code long[]} of counts per value), and one of a
     * BIGINT, per BIGINT key, bundles ending inside batches.
     */
    @Test
    void overAChangelogDistinctCountsCountRowsPerValueAndCall() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, di BIGINT, ds BIGINT, ds1 BIGINT, ds2 BIGINT, db BIGINT,"
                + " n BIGINT", "SELECT k, COUNT(DISTINCT i), COUNT(DISTINCT s), COUNT(DISTINCT s) FILTER (WHERE flag),"
                + " COUNT(DISTINCT s) FILTER (WHERE b < 0), COUNT(DISTINCT b), COUNT(*) FROM changed GROUP BY k", 5, 37,
                40, 1500);
        assertThat(occurrences(compared, "=Long:-")).as("negative row counts in the maps").isGreaterThan(500);
        assertThat(occurrences(compared, "=long[]:[")).as("count arrays in the maps").isGreaterThan(2000);
    }

    /**
     * Over a changelog with {@code table.optimizer.distinct-agg.split.enabled}: the partial phase's local aggregate,
     * grouped by the key and the bucket the columnar Calc computes, retracting its COUNT(DISTINCT) (and COUNT(*)).
     */
    @Test
    void overAChangelogTheSplitDistinctAggregatesPartialLocalPhase() throws Exception {
        Map<String, String> split = Map.of("table.optimizer.distinct-agg.split.enabled", "true",
                "table.optimizer.distinct-agg.split.bucket-num", "4");
        String select = "SELECT k, COUNT(DISTINCT b), COUNT(*) FROM changed GROUP BY k";
        TableEnvironment staged = tEnv(true, "k BIGINT, db BIGINT, n BIGINT", 37);
        split.forEach(staged.getConfig()::set);
        String explained = ColumnarSql.explain(staged, "INSERT INTO results " + select);
        assertThat(explained).as(explained).containsPattern("ColumnarLocalGroupAggregate\\(groupBy=\\[k, \\$f2\\],"
                + " partialFinalType=\\[PARTIAL\\], .*local=\\[vectorised\\]\\)");
        assertSameOutput("k BIGINT, db BIGINT, n BIGINT", select, 12, 37, 40, 1500, true, split);
    }

    /**
     * Over a changelog, MAX and MIN as Flink's {@code MaxWithRetractAggFunction} and {@code MinWithRetractAggFunction}
     * (a structured accumulator: the extreme, mapSize and a MapView of each value's row count) of BIGINT, VARCHAR
     * (one with a FILTER) and INT, per BIGINT key: values at the ends of their ranges recur, so their counts go up
     * and down across 0, and a retracted extreme gives way to the next value in the map.
     */
    @Test
    void overAChangelogMaxAndMinKeepRowCountsPerValue() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, mb BIGINT, nb BIGINT, ms STRING, ns STRING, mi INT,"
                + " n BIGINT", "SELECT k, MAX(b), MIN(b), MAX(s), MIN(s) FILTER (WHERE flag), MAX(i), COUNT(*)"
                + " FROM changed GROUP BY k", 12, 37, 40, 3000);
        assertThat(occurrences(compared, "=Long:-")).as("negative row counts in the maps").isGreaterThan(1000);
        assertThat(occurrences(compared, "[null, 0, [")).as("no extreme, mapSize 0").isGreaterThan(100);
        assertThat(compared.stream().filter(row -> row.matches(".*\\[null, 0, \\[[^\\]].*")).count())
                .as("no extreme, mapSize 0, values counted below 0 in the map").isGreaterThan(50);
    }

    /** Over a changelog without keys, and per VARCHAR key (empty, multi-byte, non-BMP strings). */
    @Test
    void overAChangelogWithoutKeysAndPerStringKey() throws Exception {
        assertSameOutput("sb BIGINT, n BIGINT", "SELECT SUM(b), COUNT(*) FROM changed", 0, 41, 40, 150);
        assertSameOutput("s STRING, n BIGINT, si INT", "SELECT s, COUNT(*), SUM(i) FROM changed GROUP BY s", 0,
                50_000, 400, 1500);
    }

    /**
     * SUM, a filtered SUM, AVG and $SUM0 (SUM beside AVG of the same column) of DECIMAL(12, 2) and DECIMAL(18, 6),
     * values at the ends of their ranges: Flink's DECIMAL(38, s) accumulators, summed past a long in a flush.
     */
    @Test
    void decimalSumsAndAverages() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, sd DECIMAL(38, 2), se DECIMAL(38, 6), ad DECIMAL(38, 6),"
                + " ae DECIMAL(38, 6), n BIGINT", "SELECT k, SUM(d), SUM(e) FILTER (WHERE flag), AVG(d), AVG(e),"
                + " COUNT(*) FROM keyed GROUP BY k", 3, 50_000, 400, 150);
        assertThat(compared.stream().filter(VectorLocalGroupAggregateTest::holdsAWideSum).count())
                .as("sums beyond a long's range compared").isGreaterThan(50);
    }

    /**
     * Over a changelog, SUM (Flink's {@code DecimalSumWithRetractAggFunction}, scale 2 and 6), AVG and a filtered
     * SUM of DECIMALs, values at the ends of their ranges, each UPDATE_BEFORE and DELETE row subtracted.
     */
    @Test
    void overAChangelogDecimalSumsAndAveragesRetract() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, sd DECIMAL(38, 2), ae DECIMAL(38, 6),"
                + " se DECIMAL(38, 6), n BIGINT", "SELECT k, SUM(d), AVG(e), SUM(e) FILTER (WHERE flag), COUNT(*)"
                + " FROM changed GROUP BY k", 3, 50_000, 400, 150);
        assertThat(compared.stream().filter(VectorLocalGroupAggregateTest::holdsAWideSum).count())
                .as("sums beyond a long's range compared").isGreaterThan(50);
    }

    /**
     * MAX and MIN of DECIMAL(12, 2) and DECIMAL(18, 6) (values at the ends of their ranges), one with a FILTER, over an
     * insert-only input (Flink's declarative functions: the value, its compact unscaled long) and over a changelog
     * (the retracting ones: the value, mapSize, and a MapView of the values' row counts keyed by DECIMAL).
     */
    @Test
    void decimalMaxAndMinOverInsertsAndOverAChangelog() throws Exception {
        String columns = "k BIGINT, md DECIMAL(12, 2), nd DECIMAL(12, 2), me DECIMAL(18, 6), ne DECIMAL(18, 6),"
                + " n BIGINT";
        String calls = "SELECT k, MAX(d), MIN(d), MAX(e) FILTER (WHERE flag), MIN(e), COUNT(*) FROM ";
        List<String> inserts = assertSameOutput(columns, calls + "keyed GROUP BY k", 12, 37, 40, 3000);
        assertThat(occurrences(inserts, "9999999999.99")).as("the largest DECIMAL(12, 2) compared").isGreaterThan(100);
        List<String> changes = assertSameOutput(columns, calls + "changed GROUP BY k", 12, 37, 40, 3000);
        assertThat(occurrences(changes, "=Long:-")).as("negative row counts in the maps").isGreaterThan(1000);
        assertThat(occurrences(changes, "DecimalData:-999999999999.999")).as("DECIMAL(18, 6) keys near its smallest")
                .isGreaterThan(100);
    }

    /**
     * MAX and MIN of TIMESTAMP(3) (one with a FILTER) and TIMESTAMP_LTZ(3) over an insert-only input, values at
     * Flink's ends and with nanos of the milli beyond the precision, batches in both timestamp layouts: Flink's
     * declarative functions compare whole timestamps and its binary row keeps the extreme's millis.
     */
    @Test
    void timestampMaxAndMinOverInserts() throws Exception {
        List<String> compared = assertSameOutput("k BIGINT, mt TIMESTAMP(3), nt TIMESTAMP(3), ml TIMESTAMP_LTZ(3),"
                + " nl TIMESTAMP_LTZ(3), n BIGINT", "SELECT k, MAX(t), MIN(t) FILTER (WHERE flag), MAX(tl), MIN(tl),"
                + " COUNT(*) FROM keyed GROUP BY k", 12, 37, 40, 3000);
        assertThat(occurrences(compared, "9999-12-31T23:59:59.99")).as("the latest timestamps").isGreaterThan(1000);
        assertThat(occurrences(compared, "0001-01-01T00:00")).as("the earliest timestamps").isGreaterThan(1000);
    }

    /** Whether a compared row holds a DECIMAL of more than 19 digits (an unscaled sum past a long's range). */
    private static boolean holdsAWideSum(String row) {
        java.util.regex.Matcher decimals = java.util.regex.Pattern.compile("[\\[ ]-?(\\d+)\\.(\\d+)[,\\]]")
                .matcher(row);
        while (decimals.find()) {
            if (decimals.group(1).length() + decimals.group(2).length() > 19) {
                return true;
            }
        }
        return false;
    }

    /**
     * Compares the two operators over 6 scripts (keys of {@code k} in [0, keys), bundles of {@code bundleSize}
     * rows, batches of up to {@code maxBatch}) and asserts more than {@code atLeast} emitted rows compared (and, for
     * bundles smaller than a batch, bundles ended inside batches); returns the rows compared, flush by flush.
     */
    private static List<String> assertSameOutput(String sinkColumns, String select, int keys, int bundleSize,
            int maxBatch, int atLeast) throws Exception {
        return assertSameOutput(sinkColumns, select, keys, bundleSize, maxBatch, atLeast, true);
    }

    /**
     * As above; without {@code mapCoverage} the distinct maps are compared but need not cover null keys, single and
     * several entries (for random shapes).
     */
    static List<String> assertSameOutput(String sinkColumns, String select, int keys, int bundleSize, int maxBatch,
            int atLeast, boolean mapCoverage) throws Exception {
        return assertSameOutput(sinkColumns, select, keys, bundleSize, maxBatch, atLeast, mapCoverage, Map.of());
    }

    /** As above, both plans made with the table options {@code options} too. */
    private static List<String> assertSameOutput(String sinkColumns, String select, int keys, int bundleSize,
            int maxBatch, int atLeast, boolean mapCoverage, Map<String, String> options) throws Exception {
        String insert = "INSERT INTO results " + select;
        TableEnvironment staged = tEnv(true, sinkColumns, bundleSize);
        options.forEach(staged.getConfig()::set);
        String explained = ColumnarSql.explain(staged, insert);
        assertThat(explained).as(explained)
                .containsPattern("ColumnarLocalGroupAggregate\\(.*local=\\[vectorised\\]")
                .contains("columnar LocalGroupAggregate: vectorised keys=").doesNotContain("ArrowToRows(");
        OneInputTransformation<?, ?> vectorised = VectorLocalWindowAggregateTest.localAggregate(staged, insert,
                VectorLocalGroupAggOperator.class);
        OneInputTransformation<?, ?> flinks = VectorLocalWindowAggregateTest.localAggregate(
                withOptions(tEnv(false, sinkColumns, bundleSize), options), insert, MapBundleOperator.class);
        RowType input = (RowType) ((InternalTypeInfo<?>) flinks.getInputs().get(0).getOutputType()).toLogicalType();
        boolean changelog = select.contains(" FROM changed");
        RowType output = (RowType) ((InternalTypeInfo<?>) flinks.getOutputType()).toLogicalType();
        assertThat(vectorised.getOutputType()).isEqualTo(flinks.getOutputType());
        int rows = 0;
        int splitBatches = 0;
        List<LocalAggOutput> vectorisedOutputs = new ArrayList<>();
        List<String> compared = new ArrayList<>();
        int retracted = 0;
        for (long seed = 1; seed <= 6; seed++) {
            List<Object> script = script(seed, input, keys, maxBatch, changelog);
            Emitted expected = run(script, operator(flinks), input, output, false);
            Emitted actual = run(script, operator(vectorised), input, output, true);
            retracted += (int) script.stream().filter(Batch.class::isInstance)
                    .flatMap(step -> ((Batch) step).rows().stream()).filter(r -> !RowDataUtil.isAccumulateMsg(r))
                    .count();
            List<List<String>> flushes = expected.flushes(expected.ends());
            assertThat(actual.flushes(expected.ends())).as("%s, seed %d", select, seed).isEqualTo(flushes);
            flushes.forEach(compared::addAll);
            rows += expected.rows();
            splitBatches += expected.splitBatches();
            vectorisedOutputs.add(actual.output());
        }
        assertThat(rows).as("local aggregate rows compared").isGreaterThan(atLeast);
        if (changelog) {
            assertThat(retracted).as("UPDATE_BEFORE and DELETE rows fed").isGreaterThan(1000);
        }
        VectorLocalWindowAggregateTest.assertBinaryRows(vectorisedOutputs, output, rows, mapCoverage);
        if (bundleSize < maxBatch) {
            assertThat(splitBatches).as("bundles ended inside a batch").isGreaterThan(50);
        }
        return compared;
    }

    /** How often {@code part} occurs in the rows. */
    private static int occurrences(List<String> rows, String part) {
        return rows.stream().mapToInt(row -> row.split(java.util.regex.Pattern.quote(part), -1).length - 1).sum();
    }

    private static TableEnvironment withOptions(TableEnvironment tEnv, Map<String, String> options) {
        options.forEach(tEnv.getConfig()::set);
        return tEnv;
    }

    static TableEnvironment tEnv(boolean stage, String sinkColumns, int bundleSize) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        if (stage) {
            assertThat(ColumnarSql.install(tEnv).status()).isEqualTo(InstallStatus.INSTALLED);
        }
        tEnv.getConfig().set("table.exec.mini-batch.enabled", "true");
        tEnv.getConfig().set("table.exec.mini-batch.allow-latency", "2 s");
        tEnv.getConfig().set("table.exec.mini-batch.size", String.valueOf(bundleSize));
        tEnv.executeSql("CREATE TABLE events (k BIGINT, i INT, b BIGINT, v DOUBLE, s STRING, flag BOOLEAN,"
                + " d DECIMAL(12, 2), e DECIMAL(18, 6), w DECIMAL(20, 2), x DECIMAL(12, 7), t TIMESTAMP(3),"
                + " tl TIMESTAMP_LTZ(3), u TIMESTAMP(6), extra STRING) WITH ("
                + "'connector' = 'kafka-columnar', 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:1',"
                + " 'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
        tEnv.executeSql("CREATE VIEW keyed AS SELECT k, i, b, v, s, flag, d, e, w, x, t, tl, u FROM events"
                + " WHERE extra IS NOT NULL");
        tEnv.executeSql("CREATE TABLE changes (k BIGINT, i INT, b BIGINT, v DOUBLE, s STRING, flag BOOLEAN,"
                + " d DECIMAL(12, 2), e DECIMAL(18, 6), w DECIMAL(20, 2), x DECIMAL(12, 7), t TIMESTAMP(3),"
                + " extra STRING) WITH ("
                + "'connector' = 'kafka-columnar', 'topic' = 'changes', 'properties.bootstrap.servers' ="
                + " 'localhost:1', 'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'debezium-json')");
        tEnv.executeSql("CREATE VIEW changed AS SELECT k, i, b, v, s, flag, d, e, w, x, t FROM changes"
                + " WHERE extra IS NOT NULL");
        tEnv.executeSql("CREATE TABLE results (" + sinkColumns + ") WITH ('connector' = 'blackhole')");
        return tEnv;
    }

    private static OneInputStreamOperator<?, ?> operator(OneInputTransformation<?, ?> transformation) {
        return (OneInputStreamOperator<?, ?>) ((SimpleOperatorFactory<?>) transformation.getOperatorFactory())
                .getOperator();
    }

    /**
     * A batch of rows: the ones in the stream, whether to hide them among unselected ones, and whether they are a
     * changelog's (the batch then carries their kinds).
     */
    private record Batch(List<RowData> rows, boolean withSelection, boolean changelog) {}

    private record Barrier() {}

    /**
     * A seeded script of 250 steps: batches of the aggregate's input rows (7 in 10), watermarks (2 in 10) and
     * checkpoint barriers; the rows of a {@code changelog} of every kind, 4 in 10 UPDATE_BEFORE or DELETE.
     */
    private static List<Object> script(long seed, RowType input, int keys, int maxBatch, boolean changelog) {
        Random random = new Random(seed);
        List<Object> steps = new ArrayList<>();
        long watermark = 1_000;
        for (int step = 0; step < 250; step++) {
            int kind = random.nextInt(10);
            if (kind < 7) {
                List<RowData> rows = new ArrayList<>();
                for (int n = 1 + random.nextInt(maxBatch); n > 0; n--) {
                    RowData row = row(random, input, keys);
                    if (changelog) {
                        row.setRowKind(KINDS[random.nextInt(KINDS.length)]);
                    }
                    rows.add(row);
                }
                steps.add(new Batch(rows, random.nextInt(3) == 0, changelog));
            } else if (kind < 9) {
                watermark += random.nextInt(3000);
                steps.add(watermark);
            } else {
                steps.add(new Barrier());
            }
        }
        return steps;
    }

    /** A row of the aggregate's input: keys from few values, the rest at the edges of their ranges or small. */
    private static RowData row(Random random, RowType input, int keys) {
        GenericRowData row = new GenericRowData(input.getFieldCount());
        for (int f = 0; f < input.getFieldCount(); f++) {
            LogicalType type = input.getTypeAt(f);
            if (type.isNullable() && random.nextInt(7) == 0) {
                continue;
            }
            String name = input.getFieldNames().get(f);
            row.setField(f, switch (type.getTypeRoot()) {
                case BIGINT -> name.equals("k") && keys > 0 ? (Object) (long) random.nextInt(keys)
                        : (Object) edgy(random, Long.MIN_VALUE, Long.MAX_VALUE);
                case INTEGER -> (int) edgy(random, Integer.MIN_VALUE, Integer.MAX_VALUE);
                case VARCHAR -> StringData.fromString(STRINGS[random.nextInt(STRINGS.length)]
                        + (keys > 1000 ? random.nextInt(4) : ""));
                case BOOLEAN -> random.nextBoolean();
                case DOUBLE -> (random.nextInt(2001) - 1000) / 4.0; // a column Flink's Calc keeps, unaggregated
                case DECIMAL -> decimal(random, (DecimalType) type);
                case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(random);
                default -> throw new AssertionError("no values for " + input.getFields().get(f).asSummaryString());
            });
        }
        return row;
    }

    /**
     * A DECIMAL of {@code type}: near its largest unscaled value a third of the time and its smallest a sixth (so a
     * flush's sums pass a long's range), else a small one of either sign.
     */
    private static DecimalData decimal(Random random, DecimalType type) {
        // a wider DECIMAL's (a column Flink's Calc keeps, unaggregated) at a long's digits
        int digits = Math.min(type.getPrecision(), 18);
        long largest = LongStream.range(0, digits).reduce(1, (power, digit) -> power * 10) - 1;
        int pick = random.nextInt(6);
        long unscaled = pick < 2 ? largest - random.nextInt(3) : pick == 2 ? -largest + random.nextInt(3)
                : random.nextInt(2001) - 1000;
        return DecimalData.fromBigDecimal(java.math.BigDecimal.valueOf(unscaled, type.getScale()),
                type.getPrecision(), type.getScale());
    }

    /**
     * A timestamp at Flink's ends (year 1, year 9999) a third of the time, else within a second of 1970 on either
     * side; a third with nanos of the milli, as a json row keeps every fraction digit of its text beyond the
     * precision (Flink's MAX and MIN compare them, its binary row keeps the millis).
     */
    private static TimestampData timestamp(Random random) {
        int pick = random.nextInt(6);
        long millis = pick == 0 ? LATEST_MILLIS - random.nextInt(3) : pick == 1 ? EARLIEST_MILLIS + random.nextInt(3)
                : random.nextInt(2001) - 1000;
        return TimestampData.fromEpochMillis(millis, random.nextInt(3) == 0 ? random.nextInt(1_000_000) : 0);
    }

    /** 9999-12-31T23:59:59.999 and 0001-01-01T00:00, the range of Flink's TIMESTAMP. */
    private static final long LATEST_MILLIS = 253_402_300_799_999L;
    private static final long EARLIEST_MILLIS = -62_135_596_800_000L;

    /** A value near an end of the range a third of the time (so sums wrap), else a small one of either sign. */
    private static long edgy(Random random, long min, long max) {
        int pick = random.nextInt(6);
        return pick == 0 ? max - random.nextInt(3) : pick == 1 ? min + random.nextInt(3) : random.nextInt(2001) - 1000;
    }

    /**
     * What an operator emitted at each step of a script (rows as kind + fields, watermarks as W + time); for
     * Flink's, fed row by row, where each of its flushes ended within the step's output.
     */
    private record Emitted(List<List<String>> steps, List<List<Integer>> ends, int rows, int splitBatches,
            LocalAggOutput output) {
        /** Each step's output cut at {@code ends}, each part sorted: the rows of each flush, in flush order. */
        List<List<String>> flushes(List<List<Integer>> ends) {
            List<List<String>> flushes = new ArrayList<>();
            for (int s = 0; s < steps.size(); s++) {
                List<String> step = steps.get(s);
                int from = 0;
                for (int end : ends.get(s)) {
                    flushes.add(step.subList(Math.min(from, step.size()), Math.min(end, step.size())).stream()
                            .sorted().toList());
                    from = end;
                }
                if (from < step.size()) {
                    flushes.add(List.of("output after the last flush: " + step.subList(from, step.size())));
                }
            }
            return flushes;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Emitted run(List<Object> script, OneInputStreamOperator<?, ?> operator, RowType input,
            RowType output, boolean batches) throws Exception {
        BufferAllocator allocator = ArrowMemory.newChild("vector-local-group-agg-test", 64L << 20);
        List<List<String>> steps = new ArrayList<>();
        List<List<Integer>> ends = new ArrayList<>();
        LocalAggOutput drained = new LocalAggOutput(output);
        int rows = 0;
        int splitBatches = 0;
        try (MockEnvironment environment = new MockEnvironmentBuilder().build();
                OneInputStreamOperatorTestHarness harness =
                        new OneInputStreamOperatorTestHarness(operator, environment)) {
            harness.setup(new RowDataSerializer(output));
            harness.open();
            for (Object step : script) {
                List<String> emitted = new ArrayList<>();
                List<Integer> stepEnds = new ArrayList<>();
                if (step instanceof Batch batch && batches) {
                    harness.processElement(new StreamRecord<>(arrowBatch(batch, input, allocator)));
                } else if (step instanceof Batch batch) {
                    for (int r = 0; r < batch.rows().size(); r++) {
                        harness.processElement(new StreamRecord<>(batch.rows().get(r)));
                        int before = emitted.size();
                        drained.drain(harness, emitted);
                        if (emitted.size() > before) {
                            stepEnds.add(emitted.size());
                            splitBatches += r < batch.rows().size() - 1 ? 1 : 0;
                        }
                    }
                } else if (step instanceof Long watermark) {
                    harness.processWatermark(new Watermark(watermark));
                } else {
                    harness.prepareSnapshotPreBarrier(steps.size());
                }
                drained.drain(harness, emitted);
                if (!(step instanceof Batch)) {
                    boolean watermark = step instanceof Long;
                    if (watermark && emitted.size() > 1) {
                        stepEnds.add(emitted.size() - 1);
                    }
                    stepEnds.add(emitted.size());
                }
                steps.add(emitted);
                ends.add(stepEnds);
                rows += (int) emitted.stream().filter(e -> e.startsWith("+I")).count();
            }
            // the end of input
            List<String> last = new ArrayList<>();
            operator.finish();
            drained.drain(harness, last);
            steps.add(last);
            ends.add(List.of(last.size()));
            rows += last.size();
        } finally {
            allocator.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        return new Emitted(steps, ends, rows, splitBatches, drained);
    }

    /**
     * The batch's rows as one Arrow batch; with a selection, among as many rows left out of it; rows of a changelog
     * with the row-kind column after the fields, as the stage's changelog batches carry it.
     */
    private static ArrowBatch arrowBatch(Batch batch, RowType input, BufferAllocator allocator) {
        // timestamps as a json scan's batches carry them (Flink's millis and nanos of the milli) or in Arrow's units
        ArrowLayout.NanoTimestamps timestamps = batch.rows().size() % 2 == 0
                ? ArrowLayout.NanoTimestamps.EVERY_PRECISION_MILLIS_AND_NANOS : ArrowLayout.NanoTimestamps.ARROW_NANOSECOND;
        RowDataArrowWriter writer = new RowDataArrowWriter(input,
                batch.changelog() ? RowKindVector.columnBeside(input.getFieldNames()) : null, timestamps, allocator);
        return arrowBatch(batch.rows(), batch.withSelection(), writer, random -> row(random, input, 3));
    }

    /**
     * {@code rows} as one Arrow batch; {@code withSelection}, each after a row of {@code leftOut} (seeded by the row
     * count), which the batch's selection leaves out.
     */
    static ArrowBatch arrowBatch(List<RowData> rows, boolean withSelection, RowType input, BufferAllocator allocator,
            java.util.function.Function<Random, RowData> leftOut) {
        return arrowBatch(rows, withSelection, new RowDataArrowWriter(input, allocator), leftOut);
    }

    private static ArrowBatch arrowBatch(List<RowData> rows, boolean withSelection, RowDataArrowWriter writer,
            java.util.function.Function<Random, RowData> leftOut) {
        if (!withSelection) {
            rows.forEach(writer::write);
            return ArrowBatch.of(writer.finish(), writer);
        }
        Random random = new Random(rows.size());
        int[] selection = new int[rows.size()];
        int written = 0;
        for (int r = 0; r < rows.size(); r++) {
            writer.write(leftOut.apply(random));
            selection[r] = ++written;
            writer.write(rows.get(r));
            written++;
        }
        VectorSchemaRoot root = writer.finish();
        return ArrowBatch.of(root, writer, selection, selection.length);
    }
}
