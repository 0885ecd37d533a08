package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.table.VectorLocalWindowAggOperator;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.arrow.RowKindVector;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.StructuredType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * The vectorised local window aggregate ({@link VectorLocalWindowAggOperator}) on batches against Flink's own
 * {@link LocalSlicingWindowAggOperator}, as Flink's planner builds it for the same query without the stage, on the
 * same rows one at a time: the oracle. Seeded scripts of batches (null keys and values, BIGINT and INT values at
 * the edges so sums wrap, strings with multi-byte and non-BMP characters, true and false FILTER columns, late
 * rows), watermarks (some behind the last, some at or below 0) and checkpoint barriers between batches drive both;
 * the emitted rows (keys, accumulators, slice end) and watermarks must be the same sequence.
 */
public class VectorLocalWindowAggregateTest {
    /**
     * The view {@code keyed}, whose columns each query's calc projects for the aggregate; {@code n} and {@code m}
     * are {@code b} and {@code i} declared NOT NULL (0 where those are null); {@code d} and {@code e} DECIMALs made
     * of {@code b} (its last 12 digits, and a tenth of it, mostly made positive: its ends near the DECIMAL(18, 6)'s),
     * null where it is.
     */
    private static final RowType KEYED = RowType.of(new LogicalType[] {new BigIntType(), new IntType(),
            new BigIntType(), new DoubleType(), VarCharType.STRING_TYPE, new TimestampType(3), new BooleanType(),
            new BigIntType(false), new IntType(false), new DecimalType(12, 2), new DecimalType(18, 6)},
            new String[] {"k", "i", "b", "v", "s", "dateTime", "flag", "n", "m", "d", "e"});
    private static final String[] STRINGS = {"", "a", "b", "ab", "é", "日本", "a\u0000", "\uD834\uDD1E",
        "x\uD834\uDD1Ey", "long string value 0123"};

    @Test
    void countStarPerBigintKeyOverHopLikeQ5() throws Exception {
        assertSameOutput("k BIGINT, n BIGINT", "SELECT k, COUNT(*) FROM TABLE(HOP(TABLE keyed, DESCRIPTOR(`dateTime`),"
                + " INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end", 12, 60, 2000);
    }

    @Test
    void everyAdmittedFunctionOverATumbleWithAnOffset() throws Exception {
        assertSameOutput("k BIGINT, n BIGINT, nv BIGINT, ns BIGINT, sb BIGINT, hb BIGINT, lb BIGINT, si INT, hi INT,"
                + " li INT", "SELECT k, COUNT(*), COUNT(v), COUNT(s), SUM(b), MAX(b), MIN(b), SUM(i), MAX(i), MIN(i)"
                + " FROM TABLE(TUMBLE(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND, INTERVAL '1'"
                + " SECOND)) GROUP BY k, window_start, window_end", 12, 60, 2000);
    }

    @Test
    void stringAndIntKeysWithoutAggregatesOverACumulateLikeQ8() throws Exception {
        assertSameOutput("s STRING, i INT", "SELECT s, i FROM TABLE(CUMULATE(TABLE keyed, DESCRIPTOR(`dateTime`),"
                + " INTERVAL '1' SECOND, INTERVAL '4' SECOND)) GROUP BY s, i, window_start, window_end", 12, 60, 2000);
    }

    @Test
    void maxWithoutKeysOverATumbleLikeQ7() throws Exception {
        // one group per slice: rows further apart in event time, so more slices
        assertSameOutput("hb BIGINT", "SELECT MAX(b) FROM TABLE(TUMBLE(TABLE keyed, DESCRIPTOR(`dateTime`),"
                + " INTERVAL '1' SECOND)) GROUP BY window_start, window_end", 12, 700, 2000);
    }

    /**
     * AVG of BIGINT and INT (Flink's BIGINT sum and count), SUM beside an AVG of the same nullable column (Flink's
     * plan keeps it a SUM: reduced, it would take more calls), and FILTERs (Flink's planner
     * makes each an {@code IS TRUE(...)} column, never null) on every kind of call, over a TUMBLE with an offset.
     */
    @Test
    void averagesSumsBesideThemAndFiltersOverATumble() throws Exception {
        String select = "SELECT k, AVG(b), AVG(i), SUM(b), SUM(i) FILTER (WHERE flag), COUNT(*) FILTER"
                + " (WHERE b > 100), COUNT(s) FILTER (WHERE flag), MAX(b) FILTER (WHERE i < 0), MIN(i) FILTER"
                + " (WHERE flag), SUM(b) FILTER (WHERE i > 0), AVG(i) FILTER (WHERE b < 0) FROM TABLE(TUMBLE(TABLE"
                + " keyed, DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND, INTERVAL '1' SECOND)) GROUP BY k,"
                + " window_start, window_end";
        assertSameOutput("k BIGINT, ab BIGINT, ai INT, sb BIGINT, si INT, n BIGINT, ns BIGINT, hb BIGINT, li INT,"
                + " sf BIGINT, af INT", select,
                "\\[AVG\\(\\$1\\), AVG\\(\\$2\\), SUM\\(\\$1\\), .*, AVG\\(\\$2\\) FILTER \\$\\d+\\]", 12, 60, 2000);
    }

    /**
     * A HOP without a COUNT(*) (a filtered one is not one): Flink appends a COUNT(*) to the local accumulators for
     * its global phase, and so does the vectorised operator; with AVG, and MAX and MIN of a VARCHAR (null, empty,
     * multi-byte and non-BMP values) with and without a FILTER.
     */
    @Test
    void hopWithoutCountStarAveragesAndStringMaxAndMin() throws Exception {
        String select = "SELECT k, AVG(b), COUNT(*) FILTER (WHERE flag), MAX(s), MIN(s) FILTER (WHERE b < 0) FROM"
                + " TABLE(HOP(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
                + " GROUP BY k, window_start, window_end";
        // the decision line's last aggregate is the appended COUNT(*)
        assertSameOutput("k BIGINT, ab BIGINT, n BIGINT, hs STRING, ls STRING", select, "\\[AVG\\(\\$\\d\\),"
                + " COUNT\\(\\*\\) FILTER \\$\\d, MAX\\(\\$\\d\\), MIN\\(\\$\\d\\) FILTER \\$\\d, COUNT\\(\\*\\)\\]",
                12, 60, 2000);
    }

    /** INT keys of many values (so many groups per slice), string MAX and MIN and AVG, over a CUMULATE. */
    @Test
    void stringMaxAndMinAndAveragesPerIntKeyOverACumulate() throws Exception {
        assertSameOutput("i INT, hs STRING, ls STRING, ai INT, ab BIGINT", "SELECT i, MAX(s) FILTER (WHERE flag),"
                + " MIN(s), AVG(i), AVG(b) FILTER (WHERE flag) FROM TABLE(CUMULATE(TABLE keyed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '1' SECOND, INTERVAL '4' SECOND)) GROUP BY i, window_start,"
                + " window_end", 12, 60, 4000);
    }

    /**
     * COUNT(DISTINCT ...) of a BIGINT of few values (so values, null among them, repeat within a slice, across
     * batches and flushes) and of an INT, with and without FILTERs sharing a column, per VARCHAR key over a
     * CUMULATE: Flink's local accumulator per distinct column is a map of the values to the bits of the calls that
     * saw them, as in its local group aggregate.
     */
    @Test
    void distinctCountsWithFiltersPerStringKeyOverACumulate() throws Exception {
        assertSameOutput("s STRING, n BIGINT, d BIGINT, d1 BIGINT, d2 BIGINT, di BIGINT", "SELECT s, COUNT(*),"
                + " COUNT(DISTINCT k), COUNT(DISTINCT k) FILTER (WHERE flag), COUNT(DISTINCT k) FILTER (WHERE b < 0),"
                + " COUNT(DISTINCT i) FILTER (WHERE flag) FROM TABLE(CUMULATE(TABLE keyed, DESCRIPTOR(`dateTime`),"
                + " INTERVAL '1' SECOND, INTERVAL '3' SECOND)) GROUP BY s, window_start, window_end", 9, 60, 2000);
    }

    /** COUNT(DISTINCT ...) beside AVG and a filtered SUM, per BIGINT key over a TUMBLE. */
    @Test
    void distinctCountsBesideAveragesOverATumble() throws Exception {
        assertSameOutput("k BIGINT, d BIGINT, ab BIGINT, sb BIGINT, di BIGINT", "SELECT k, COUNT(DISTINCT i),"
                + " AVG(b), SUM(b) FILTER (WHERE flag), COUNT(DISTINCT b) FILTER (WHERE b > 0) FROM TABLE(TUMBLE(TABLE"
                + " keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end",
                12, 60, 2000);
    }

    /**
     * COUNT(DISTINCT ...) of a VARCHAR (empty, multi-byte, non-BMP and NUL-holding values, and nulls), with and
     * without a FILTER, beside a BIGINT one, per BIGINT key over a TUMBLE and over a CUMULATE: the map's keys are
     * Flink's {@code BinaryStringData} on both sides (the comparison prints each key's class).
     */
    @Test
    void distinctCountsOfStringsOverATumbleAndACumulate() throws Exception {
        assertSameOutput("k BIGINT, d BIGINT, df BIGINT, db BIGINT", "SELECT k, COUNT(DISTINCT s),"
                + " COUNT(DISTINCT s) FILTER (WHERE flag), COUNT(DISTINCT b) FROM TABLE(TUMBLE(TABLE keyed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end", 12, 60, 2000);
        assertSameOutput("k BIGINT, d BIGINT, df BIGINT", "SELECT k, COUNT(DISTINCT s) FILTER (WHERE b > 0),"
                + " COUNT(DISTINCT s) FROM TABLE(CUMULATE(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '1' SECOND,"
                + " INTERVAL '3' SECOND)) GROUP BY k, window_start, window_end", 12, 60, 2000);
    }

    /**
     * $SUM0, as Flink's window plan has it: Flink's planner reduces AVG and SUM of a NOT NULL column beside a COUNT(*)
     * (Calcite's AggregateReduceFunctionsRule, in Flink's logical rules: a SUM that is never null becomes $SUM0 and
     * an AVG that $SUM0 over COUNT(*)), which leaves fewer calls than the query's, so Flink's cost model takes it:
     * the local aggregate computes COUNT(*) and $SUM0 of a BIGINT and of an INT (an INT sum from 0, wrapping at the
     * ends of the range) over a TUMBLE with an offset, and, with FILTERs, beside an unfiltered COUNT(*) over a HOP.
     */
    @Test
    void averagesAndSumsOfNotNullColumnsBesideACountAreSum0() throws Exception {
        assertSameOutput("k BIGINT, c BIGINT, an BIGINT, sn BIGINT, am INT, sm INT", "SELECT k, COUNT(*), AVG(n), SUM(n),"
                + " AVG(m), SUM(m) FROM TABLE(TUMBLE(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND,"
                + " INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end",
                "\\[COUNT\\(\\*\\), SUM0\\(\\$\\d\\), SUM0\\(\\$\\d\\)\\]", 12, 60, 2000);
        assertSameOutput("k BIGINT, c BIGINT, an BIGINT, sn BIGINT, n BIGINT", "SELECT k, COUNT(*) FILTER (WHERE flag),"
                + " AVG(n) FILTER (WHERE flag), SUM(n) FILTER (WHERE flag), COUNT(*) FROM TABLE(HOP(TABLE keyed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) GROUP BY k, window_start,"
                + " window_end", "\\[COUNT\\(\\*\\) FILTER \\$\\d, SUM0\\(\\$\\d\\) FILTER \\$\\d, COUNT\\(\\*\\)\\]",
                12, 60, 2000);
    }

    /**
     * COUNT(DISTINCT ...) over a HOP without a COUNT(*): Flink's HOP counts each slice's input, so its distinct
     * accumulators are a retracting input's, mapping each value (null among them) to a count of its rows: a Long
     * for a column of one call (an INT's), a {@code long[]} of one count per call for a column of several (a
     * BIGINT's of few values, so they repeat within a slice, with and without FILTERs); and the COUNT(*) Flink
     * appends, per VARCHAR key.
     */
    @Test
    void distinctCountsOverAHopCountEachValuesRowsPerCall() throws Exception {
        List<String> emitted = assertSameOutput("s STRING, d BIGINT, d1 BIGINT, d2 BIGINT, di BIGINT",
                "SELECT s, COUNT(DISTINCT k), COUNT(DISTINCT k) FILTER (WHERE flag), COUNT(DISTINCT k) FILTER"
                        + " (WHERE b < 0), COUNT(DISTINCT i) FROM TABLE(HOP(TABLE keyed, DESCRIPTOR(`dateTime`),"
                        + " INTERVAL '2' SECOND, INTERVAL '6' SECOND)) GROUP BY s, window_start, window_end",
                "\\[COUNT\\(DISTINCT \\$\\d\\), .*, COUNT\\(DISTINCT \\$\\d\\), COUNT\\(\\*\\)\\],"
                        + " distinct values counting their rows", 12, 60, 2000);
        assertCountedRows(emitted, "=Long:", 500);
        assertCountedRows(emitted, "=long[]:[", 500);
    }

    /**
     * COUNT(DISTINCT ...) of a VARCHAR (empty, multi-byte, non-BMP and NUL-holding values, and nulls) over a HOP
     * with an offset beside a COUNT(*) (so none appended): a column of two calls, both filtered (Flink skips a row
     * that fails both, and counts per call), and a filtered BIGINT column of one call; then an unfiltered VARCHAR
     * column of one call per INT key over a HOP of 1 s slices.
     */
    @Test
    void distinctCountsOfStringsWithFiltersOverAHop() throws Exception {
        List<String> emitted = assertSameOutput("k BIGINT, n BIGINT, ds BIGINT, ds1 BIGINT, db BIGINT",
                "SELECT k, COUNT(*), COUNT(DISTINCT s) FILTER (WHERE flag), COUNT(DISTINCT s) FILTER (WHERE b > 0),"
                        + " COUNT(DISTINCT b) FILTER (WHERE flag) FROM TABLE(HOP(TABLE keyed, DESCRIPTOR(`dateTime`),"
                        + " INTERVAL '2' SECOND, INTERVAL '4' SECOND, INTERVAL '1' SECOND)) GROUP BY k, window_start,"
                        + " window_end",
                "\\[COUNT\\(\\*\\), COUNT\\(DISTINCT \\$\\d\\) FILTER \\$\\d, .*\\], distinct values counting"
                        + " their rows", 12, 60, 2000);
        assertCountedRows(emitted, "=Long:", 250);
        assertCountedRows(emitted, "=long[]:[", 500);
        assertSameOutput("i INT, ds BIGINT", "SELECT i, COUNT(DISTINCT s) FROM TABLE(HOP(TABLE keyed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) GROUP BY i, window_start,"
                + " window_end", 12, 60, 2000);
    }

    /**
     * Asserts that more than {@code atLeast} of the compared rows held a distinct value mapped to a count above 1 of
     * the kind {@code kind} ({@code =Long:} or {@code =long[]:[}): the values repeated, so a bit-set would differ.
     */
    private static void assertCountedRows(List<String> emitted, String kind, int atLeast) {
        Pattern counted = Pattern.compile(Pattern.quote(kind) + "(\\d+, )*([2-9]|\\d\\d+)\\b");
        assertThat(emitted.stream().filter(e -> counted.matcher(e).find()).count())
                .as("rows with a value counted more than once (%s)", kind).isGreaterThan(atLeast);
    }

    @Test
    void manyKeysGrowTheHashTable() throws Exception {
        assertSameOutput("k BIGINT, s STRING, n BIGINT, sb BIGINT, ab BIGINT, hs STRING", "SELECT k, s, COUNT(*),"
                + " SUM(b), AVG(b) FILTER (WHERE flag), MAX(s) FILTER (WHERE b > 0) FROM TABLE(TUMBLE(TABLE keyed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY k, s, window_start, window_end",
                1_000_000, 5, 20_000);
    }

    /**
     * SUM, a filtered SUM and AVG of DECIMAL(12, 2) and DECIMAL(18, 6) per key over a HOP (its appended COUNT(*)) and
     * a TUMBLE: Flink's DECIMAL(38, s) accumulators, summed past a long's range in a slice.
     */
    @Test
    void decimalSumsAndAveragesOverAHopAndATumble() throws Exception {
        List<String> hop = assertSameOutput("k BIGINT, sd DECIMAL(38, 2), se DECIMAL(38, 6), ae DECIMAL(38, 6)",
                "SELECT k, SUM(d), SUM(e) FILTER (WHERE flag), AVG(e) FROM TABLE(HOP(TABLE keyed,"
                        + " DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
                        + " GROUP BY k, window_start, window_end", ".*", 3, 20, 1000);
        List<String> tumble = assertSameOutput("k BIGINT, ad DECIMAL(38, 6), se DECIMAL(38, 6)", "SELECT k, AVG(d),"
                + " SUM(e) FROM TABLE(TUMBLE(TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND))"
                + " GROUP BY k, window_start, window_end", ".*", 3, 20, 1000);
        long wide = java.util.stream.Stream.concat(hop.stream(), tumble.stream())
                .filter(row -> java.util.regex.Pattern.compile("[\\[ ]-?\\d{14,}\\.\\d{6}[,\\]]").matcher(row).find())
                .count();
        assertThat(wide).as("rows holding a DECIMAL(18, 6) sum past a long's range").isGreaterThan(50);
    }

    /**
     * MAX and MIN of DECIMAL(12, 2) and DECIMAL(18, 6) per key over a HOP of inserts (Flink's declarative functions)
     * and a TUMBLE of a changelog (the retracting ones, their maps keyed by DECIMAL).
     */
    @Test
    void decimalMaxAndMinOverAHopAndOverAChangelogsTumble() throws Exception {
        String columns = "k BIGINT, md DECIMAL(12, 2), ne DECIMAL(18, 6)";
        List<String> hop = assertSameOutput(columns, "SELECT k, MAX(d), MIN(e) FILTER (WHERE flag) FROM TABLE(HOP("
                + "TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
                + " GROUP BY k, window_start, window_end", ".*", 3, 20, 1000);
        List<String> tumble = assertSameOutput(columns, "SELECT k, MAX(d), MIN(e) FROM TABLE(TUMBLE(TABLE changed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND)) GROUP BY k, window_start, window_end",
                ".*MAX_RETRACT.*retracting by \\$\\d+", 3, 20, 1000);
        // the script's largest d: Long.MAX_VALUE - x, mod 10^12, unscaled
        assertThat(hop.stream().filter(row -> row.contains("368547758.0")).count())
                .as("rows holding the script's largest DECIMAL(12, 2)").isGreaterThan(50);
        assertThat(tumble.stream().filter(row -> row.contains("DecimalData:")).count())
                .as("rows with DECIMAL keys in their maps").isGreaterThan(200);
    }

    /** MAX and MIN of the TIMESTAMP(3) rowtime per key over a HOP and a TUMBLE of inserts. */
    @Test
    void timestampMaxAndMinOverAHopAndATumble() throws Exception {
        String columns = "k BIGINT, mt TIMESTAMP(3), nt TIMESTAMP(3)";
        assertSameOutput(columns, "SELECT k, MAX(`dateTime`), MIN(`dateTime`) FILTER (WHERE flag) FROM TABLE(HOP("
                + "TABLE keyed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
                + " GROUP BY k, window_start, window_end", 3, 20, 1000);
        assertSameOutput(columns, "SELECT k, MAX(`dateTime`), MIN(`dateTime`) FROM TABLE(TUMBLE(TABLE keyed,"
                + " DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND)) GROUP BY k, window_start, window_end", 3, 20, 1000);
    }

    /**
     * Over a changelog (a debezium-json table with the same watermark): Flink's retracting COUNT(*) (its input count),
     * COUNT, SUM of BIGINT and DECIMAL (a sum and a count each), AVG and a filtered COUNT(DISTINCT) (its values
     * counting their rows) per key over a TUMBLE and a HOP, each UPDATE_BEFORE and DELETE row retracted.
     */
    @Test
    void overAChangelogRetractingFunctionsOverATumbleAndAHop() throws Exception {
        List<String> tumble = assertSameOutput("k BIGINT, n BIGINT, nv BIGINT, sb BIGINT, sd DECIMAL(38, 2), ai INT,"
                + " di BIGINT", "SELECT k, COUNT(*), COUNT(v), SUM(b), SUM(d), AVG(i), COUNT(DISTINCT i) FILTER (WHERE"
                + " flag) FROM TABLE(TUMBLE(TABLE changed, DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND))"
                + " GROUP BY k, window_start, window_end", ".*retracting by \\$\\d+", 12, 60, 1000);
        List<String> hop = assertSameOutput("k BIGINT, sb BIGINT, ae DECIMAL(38, 6)", "SELECT k, SUM(b), AVG(e)"
                + " FROM TABLE(HOP(TABLE changed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
                + " GROUP BY k, window_start, window_end", ".*COUNT\\(\\*\\)\\], retracting by \\$\\d+", 12, 60, 1000);
        long negative = java.util.stream.Stream.concat(tumble.stream(), hop.stream())
                .filter(row -> row.contains(", -")).count();
        assertThat(negative).as("rows with a negative count or sum").isGreaterThan(500);
    }

    /**
     * Over a changelog, Flink's retracting MAX and MIN (the extreme, mapSize and a MapView of each value's row count)
     * of BIGINT, VARCHAR (one with a FILTER) and INT per key over a TUMBLE and a HOP.
     */
    @Test
    void overAChangelogMaxAndMinOverATumbleAndAHop() throws Exception {
        List<String> tumble = assertSameOutput("k BIGINT, mb BIGINT, ns STRING, mi INT", "SELECT k, MAX(b),"
                + " MIN(s) FILTER (WHERE flag), MAX(i) FROM TABLE(TUMBLE(TABLE changed, DESCRIPTOR(`dateTime`),"
                + " INTERVAL '3' SECOND)) GROUP BY k, window_start, window_end",
                ".*MAX_RETRACT.*retracting by \\$\\d+", 12, 60, 1000);
        List<String> hop = assertSameOutput("k BIGINT, nb BIGINT, ms STRING", "SELECT k, MIN(b), MAX(s)"
                + " FROM TABLE(HOP(TABLE changed, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
                + " GROUP BY k, window_start, window_end", ".*MIN_RETRACT.*retracting by \\$\\d+", 12, 60, 1000);
        long negative = java.util.stream.Stream.concat(tumble.stream(), hop.stream())
                .filter(row -> row.contains("=Long:-")).count();
        assertThat(negative).as("rows with a value counted below 0").isGreaterThan(500);
    }

    /**
     * Compares the two operators over 6 scripts of rows with keys of {@code k} in [0, keys) and event times
     * {@code [0, maxGap)} ms apart, and asserts more than {@code atLeast} emitted rows compared.
     */
    private static void assertSameOutput(String sinkColumns, String select, int keys, int maxGap, int atLeast)
            throws Exception {
        assertSameOutput(sinkColumns, select, ".*", keys, maxGap, atLeast);
    }

    /**
     * As above, the decision line's aggregates matching {@code aggregates} (a pattern); returns what Flink's operator
     * emitted, every script's.
     */
    private static List<String> assertSameOutput(String sinkColumns, String select, String aggregates, int keys,
            int maxGap, int atLeast) throws Exception {
        String insert = "INSERT INTO results " + select;
        TableEnvironment staged = tEnv(true, sinkColumns);
        String explained = ColumnarSql.explain(staged, insert);
        assertThat(explained).as(explained).containsPattern("ColumnarLocalWindowAggregate\\(.*local=\\[vectorised\\]")
                .containsPattern("columnar LocalWindowAggregate: vectorised keys=.*, aggregates=" + aggregates);
        OneInputTransformation<?, ?> vectorised = localAggregate(staged, insert, VectorLocalWindowAggOperator.class);
        OneInputTransformation<?, ?> flinks = localAggregate(tEnv(false, sinkColumns), insert,
                LocalSlicingWindowAggOperator.class);
        // the calc's projection of the view, as Flink's local aggregate reads it (the stage's columnar calc is the
        // same node of the same plan, so its batches carry these columns)
        RowType input = (RowType) ((InternalTypeInfo<?>) flinks.getInputs().get(0).getOutputType()).toLogicalType();
        int[] projection = input.getFields().stream().mapToInt(field -> KEYED.getFieldIndex(field.getName()) >= 0
                ? KEYED.getFieldIndex(field.getName())
                // a TIMESTAMP not of the view: the rowtime materialized as an aggregate's argument, the same value
                : field.getType().is(LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) ? KEYED.getFieldIndex("dateTime")
                : -1).toArray();
        for (int f = 0; f < projection.length; f++) {
            // not a column of the view: a FILTER's IS TRUE(...), which the script draws
            assertThat(projection[f] >= 0 || input.getTypeAt(f).equals(new BooleanType(false)))
                    .as("%s within %s", input.getFields().get(f).asSummaryString(), KEYED).isTrue();
        }
        RowType outputType = (RowType) ((InternalTypeInfo<?>) flinks.getOutputType()).toLogicalType();
        assertThat(vectorised.getOutputType()).isEqualTo(flinks.getOutputType());
        int rows = 0;
        int scripts = 0;
        List<LocalAggOutput> vectorisedOutputs = new ArrayList<>();
        List<String> compared = new ArrayList<>();
        boolean changelog = select.contains("TABLE changed");
        for (long seed = 1; seed <= 6; seed++) {
            List<String> expected = run(seed, keys, maxGap, input, projection,
                    (OneInputStreamOperator<?, ?>) operator(flinks), new LocalAggOutput(outputType), false, changelog);
            LocalAggOutput vectorisedOutput = new LocalAggOutput(outputType);
            List<String> actual = run(seed, keys, maxGap, input, projection,
                    (OneInputStreamOperator<?, ?>) operator(vectorised), vectorisedOutput, true, changelog);
            assertThat(actual).as("%s, seed %d", select, seed).isEqualTo(expected);
            rows += (int) expected.stream().filter(e -> e.startsWith("+I")).count();
            scripts++;
            compared.addAll(expected);
            vectorisedOutputs.add(vectorisedOutput);
        }
        assertThat(scripts).isEqualTo(6);
        assertThat(rows).as("local aggregate rows compared").isGreaterThan(atLeast);
        assertBinaryRows(vectorisedOutputs, outputType, rows);
        return compared;
    }

    /**
     * Asserts that the vectorised operator emitted its {@code rows} rows as {@link BinaryRowData} (which the
     * comparison took byte for byte), and, where they carry distinct accumulators, that their maps were compared:
     * one per distinct column and row, their bytes Flink's serializer's, some with a null key and some whole.
     */
    static void assertBinaryRows(List<LocalAggOutput> outputs, RowType outputType, int rows) {
        assertBinaryRows(outputs, outputType, rows, true);
    }

    /**
     * As above; without {@code mapCoverage}, the maps are compared but not required to include null keys, single
     * entries and several (a random shape's groups may hold one value each, or many).
     */
    static void assertBinaryRows(List<LocalAggOutput> outputs, RowType outputType, int rows, boolean mapCoverage) {
        int binary = outputs.stream().mapToInt(LocalAggOutput::binaryRows).sum();
        assertThat(outputs.stream().mapToInt(LocalAggOutput::rows).sum()).as("rows emitted").isEqualTo(rows);
        assertThat(binary).as("rows emitted binary").isEqualTo(rows);
        long distinctColumns = outputType.getChildren().stream().filter(RawType.class::isInstance).count();
        // a retracting MAX's or MIN's structured accumulator holds its MapView
        long extremes = outputType.getChildren().stream().filter(StructuredType.class::isInstance).count();
        int maps = outputs.stream().mapToInt(LocalAggOutput::maps).sum();
        assertThat(maps).as("distinct accumulators and views compared").isEqualTo((distinctColumns + extremes) * rows);
        if (distinctColumns > 0 && mapCoverage) {
            // an extreme's map never has a null key: Flink's retracting MAX and MIN skip null values
            assertThat(outputs.stream().mapToInt(LocalAggOutput::nullKeys).sum()).as("maps with a null key")
                    .isGreaterThan((int) (distinctColumns * rows / 100));
        }
        if (distinctColumns + extremes > 0 && mapCoverage) {
            assertThat(outputs.stream().mapToInt(LocalAggOutput::mapsComparedWhole).sum())
                    .as("maps compared byte for byte").isGreaterThan(maps / 100);
            assertThat(maps - outputs.stream().mapToInt(LocalAggOutput::mapsComparedWhole).sum())
                    .as("maps of several entries").isGreaterThan(maps / 100);
        }
    }

    public static TableEnvironment tEnv(boolean stage, String sinkColumns) {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        if (stage) {
            assertThat(ColumnarSql.install(tEnv).status()).isEqualTo(InstallStatus.INSTALLED);
        }
        tEnv.executeSql("CREATE TABLE events (k BIGINT, i INT, b BIGINT, v DOUBLE, s STRING, `dateTime` TIMESTAMP(3),"
                + " flag BOOLEAN, n BIGINT NOT NULL, m INT NOT NULL, d DECIMAL(12, 2), e DECIMAL(18, 6), extra STRING,"
                + " WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ("
                + "'connector' = 'kafka-columnar', 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:1',"
                + " 'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')");
        tEnv.executeSql("CREATE VIEW keyed AS SELECT k, i, b, v, s, `dateTime`, flag, n, m, d, e FROM events"
                + " WHERE extra IS NOT NULL");
        tEnv.executeSql("CREATE TABLE changes (k BIGINT, i INT, b BIGINT, v DOUBLE, s STRING, `dateTime` TIMESTAMP(3),"
                + " flag BOOLEAN, n BIGINT NOT NULL, m INT NOT NULL, d DECIMAL(12, 2), e DECIMAL(18, 6), extra STRING,"
                + " WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ("
                + "'connector' = 'kafka-columnar', 'topic' = 'changes', 'properties.bootstrap.servers' ="
                + " 'localhost:1', 'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset',"
                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'debezium-json')");
        tEnv.executeSql("CREATE VIEW changed AS SELECT k, i, b, v, s, `dateTime`, flag, n, m, d, e FROM changes"
                + " WHERE extra IS NOT NULL");
        tEnv.executeSql("CREATE TABLE results (" + sinkColumns + ") WITH ('connector' = 'blackhole')");
        return tEnv;
    }

    /** The transformation of the plan's local window aggregate, whose operator must be of {@code type}. */
    public static OneInputTransformation<?, ?> localAggregate(TableEnvironment tEnv, String insert, Class<?> type) {
        return transformation(tEnv, insert, type.getSimpleName(), one -> type.isInstance(operator(one)));
    }

    /** The first one-input transformation of {@code insert}'s translated plan that is {@code wanted}. */
    static OneInputTransformation<?, ?> transformation(TableEnvironment tEnv, String insert, String name,
            java.util.function.Predicate<OneInputTransformation<?, ?>> wanted) {
        TableEnvironmentImpl impl = (TableEnvironmentImpl) tEnv;
        ModifyOperation modify = (ModifyOperation) impl.getParser().parse(insert).get(0);
        List<Transformation<?>> roots = ((PlannerBase) impl.getPlanner()).translate(List.of(modify));
        Deque<Transformation<?>> todo = new ArrayDeque<>(roots);
        Set<Transformation<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Transformation<?> t = todo.pop();
            if (!seen.add(t)) {
                continue;
            }
            if (t instanceof OneInputTransformation<?, ?> one && wanted.test(one)) {
                return one;
            }
            todo.addAll(t.getInputs());
        }
        throw new AssertionError("no " + name + " in the translated plan");
    }

    private static Object operator(OneInputTransformation<?, ?> transformation) {
        StreamOperatorFactory<?> factory = transformation.getOperatorFactory();
        return factory instanceof SimpleOperatorFactory<?> simple ? simple.getOperator() : null;
    }

    /**
     * Runs one seeded script through {@code operator}, fed batches or their rows one at a time, and returns what it
     * emitted: each row as its fields ({@code +I[...]}) and each watermark ({@code W<timestamp>}), in order.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<String> run(long seed, int keys, int maxGap, RowType input, int[] projection,
            OneInputStreamOperator<?, ?> operator, LocalAggOutput output, boolean batches, boolean changelog)
            throws Exception {
        // a changelog's rows: 4 in 10 UPDATE_BEFORE or DELETE, drawn from a random of their own (the values' draws
        // stay those of the insert-only scripts); their batches carry the kinds after the fields
        Random kinds = new Random(-seed);
        String rowKindColumn = changelog ? RowKindVector.columnBeside(input.getFieldNames()) : null;
        RowType batchType = new RowType(IntStream.range(0, projection.length).mapToObj(f -> projection[f] >= 0
                && KEYED.getFieldNames().get(projection[f]).equals(input.getFieldNames().get(f))
                ? KEYED.getFields().get(projection[f]) : input.getFields().get(f)).toList());
        Random random = new Random(seed);
        BufferAllocator allocator = ArrowMemory.newChild("vector-local-window-agg-test", 64L << 20);
        List<String> emitted = new ArrayList<>();
        try (MockEnvironment environment = new MockEnvironmentBuilder().setManagedMemorySize(32L << 20).build();
                OneInputStreamOperatorTestHarness harness = new OneInputStreamOperatorTestHarness(operator, environment)) {
            harness.setup(new RowDataSerializer(output.type()));
            harness.getStreamConfig().setManagedMemoryFractionOperatorOfUseCase(ManagedMemoryUseCase.OPERATOR, 0.5);
            harness.open();
            long eventTime = 1_000_000;
            long watermark;
            int maxBatch = keys > 1000 ? 400 : 40; // many keys: more rows, so more groups per flush
            for (int step = 0; step < 250; step++) {
                int kind = random.nextInt(10);
                if (kind < 7) {
                    List<RowData> rows = new ArrayList<>();
                    for (int n = 1 + random.nextInt(maxBatch); n > 0; n--) {
                        eventTime += random.nextInt(maxGap);
                        // a tenth late: up to 8 s behind, before the watermark of 4 s behind
                        long ts = random.nextInt(10) == 0 ? eventTime - random.nextInt(8000) : eventTime;
                        Long k = random.nextInt(6) == 0 ? null : (long) random.nextInt(keys);
                        Integer i = random.nextInt(7) == 0 ? null
                                : (Integer) edgy(random, Integer.MIN_VALUE, Integer.MAX_VALUE);
                        Long b = random.nextInt(7) == 0 ? null : (Long) edgy(random, Long.MIN_VALUE, Long.MAX_VALUE);
                        Double v = random.nextInt(8) == 0 ? null : random.nextInt(5) == 0 ? Double.NaN
                                : (random.nextInt(2001) - 1000) / 4.0;
                        StringData s = random.nextInt(6) == 0 ? null : StringData.fromString(
                                STRINGS[random.nextInt(STRINGS.length)] + (keys > 1000 ? random.nextInt(8) : ""));
                        Boolean flag = random.nextInt(7) == 0 ? null : random.nextBoolean();
                        // the DECIMALs from b: no draw of their own, so every script's other values stay as they were
                        DecimalData d = b == null ? null : DecimalData.fromUnscaledLong(b % 1_000_000_000_000L, 12, 2);
                        // mostly positive, so a slice's sums pass a long's range
                        DecimalData e = b == null ? null
                                : DecimalData.fromUnscaledLong((b & 3) != 0 ? Math.abs(b / 10) : b / 10, 18, 6);
                        RowData row = project(random, projection, k, i, b, v, s, TimestampData.fromEpochMillis(ts),
                                flag, b == null ? 0L : b, i == null ? 0 : i, d, e);
                        if (changelog) {
                            int draw = kinds.nextInt(10);
                            row.setRowKind(draw < 3 ? RowKind.INSERT : draw < 6 ? RowKind.UPDATE_AFTER
                                    : draw < 9 ? RowKind.UPDATE_BEFORE : RowKind.DELETE);
                        }
                        rows.add(row);
                    }
                    ColumnarLocalWindowAggregateTest.feed(harness, rows, batches ? batchType : null, rowKindColumn,
                            allocator);
                } else if (kind < 9) {
                    // mostly rising, sometimes behind the last one, once in a while at or below 0 (ignored)
                    int w = random.nextInt(12);
                    watermark = w == 0 ? -random.nextInt(5) : eventTime - 4000 - (w < 4 ? 3000 : 0);
                    harness.processWatermark(new Watermark(watermark));
                } else {
                    harness.prepareSnapshotPreBarrier(step);
                }
                output.drain(harness, emitted);
            }
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            output.drain(harness, emitted);
        } finally {
            allocator.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        return emitted;
    }

    /** The aggregate's input row: the view's columns it reads, and a drawn true or false for each FILTER column. */
    private static RowData project(Random random, int[] projection, Object... keyed) {
        GenericRowData row = new GenericRowData(projection.length);
        for (int i = 0; i < projection.length; i++) {
            row.setField(i, projection[i] >= 0 ? keyed[projection[i]] : (Object) random.nextBoolean());
        }
        return row;
    }

    /** A value near an end of the range a third of the time (so sums wrap), else a small one of either sign. */
    private static Object edgy(Random random, long min, long max) {
        int pick = random.nextInt(6);
        long value = pick == 0 ? max - random.nextInt(3) : pick == 1 ? min + random.nextInt(3)
                : random.nextInt(2001) - 1000;
        return min == Integer.MIN_VALUE ? (Object) (int) value : (Object) value;
    }
}
