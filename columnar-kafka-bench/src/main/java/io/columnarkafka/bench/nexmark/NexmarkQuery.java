package io.columnarkafka.bench.nexmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Nexmark suite's queries (nexmark/nexmark {@code queries/q*.sql}) that Flink 2.2 runs, as resources
 * {@code nexmark/qN.sql}: the suite's result table with {@code WITH (${SINK})} in place of its blackhole
 * (and, for updating results, the primary key their upsert sink writes by), then the INSERT. q10 writes to
 * Kafka instead of the suite's filesystem table.
 */
enum NexmarkQuery {
    Q0(false, Output.APPEND),
    Q1(false, Output.APPEND),
    Q2(false, Output.APPEND),
    Q3(true, Output.APPEND),
    Q4(true, Output.UPSERT),
    Q5(true, Output.APPEND),
    Q7(true, Output.APPEND),
    Q8(true, Output.APPEND),
    // The winning bid's other columns are open when two bids tie on (price, dateTime); the generator gives
    // such ties (3 of 2,779 auctions in the first 50,000 events), and which one wins depends on the order
    // the join emits them in, which differs run to run (and with mini-batch).
    Q9(true, Output.UPSERT, "bidder", "bid_extra"),
    Q10(false, Output.APPEND),
    Q11(true, Output.APPEND),
    Q12(true, Output.CLOSED_WINDOW_BIDS),
    Q14(false, Output.APPEND),
    Q15(true, Output.UPSERT),
    Q16(true, Output.UPSERT),
    Q17(true, Output.UPSERT),
    Q18(true, Output.UPSERT),
    // Bids of one auction with equal prices tie; which one gets which rank depends on their arrival order.
    Q19(true, Output.UPSERT, "bidder", "channel", "url", "dateTime", "extra"),
    Q20(true, Output.APPEND),
    Q21(false, Output.APPEND),
    Q22(false, Output.APPEND);

    /** What the result topic is compared by. */
    enum Output {
        /** Insert-only: the multiset of values. */
        APPEND,
        /** Updating: the final value per key ({@code upsert-kafka}; a tombstone deletes). */
        UPSERT,
        /**
         * q12's processing-time windows cut the stream at wall-clock instants, and Flink never fires those still
         * open when the bounded input ends, so which bids are counted differs run to run (stock against stock
         * too): each bidder's bids summed over its windows must be at most its bids in the input
         * ({@link InputBids}); not compared with stock.
         */
        CLOSED_WINDOW_BIDS
    }

    /** Queries of the suite not run, and why. */
    static final Map<String, String> SKIPPED = skipped();

    final boolean stateful;
    final Output output;
    /**
     * The result columns a ROW_NUMBER Top-N leaves open: those of rows tied on its ORDER BY, which SQL ranks in
     * no defined order. The output check compares the final values per key without them (the ranked keys and
     * the ORDER BY columns are what the query defines).
     */
    final List<String> openOnTie;

    NexmarkQuery(boolean stateful, Output output, String... openOnTie) {
        this.stateful = stateful;
        this.output = output;
        this.openOnTie = List.of(openOnTie);
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean upsert() {
        return output == Output.UPSERT;
    }

    /** The query's statements (result table, views, INSERT) with its sink options in place. */
    List<String> statements(String sinkOptions) {
        return NexmarkSql.statements(NexmarkSql.resource("nexmark/" + id() + ".sql").replace("${SINK}", sinkOptions));
    }

    static NexmarkQuery byId(String id) {
        String key = id.trim().toLowerCase(Locale.ROOT);
        if (SKIPPED.containsKey(key)) {
            throw new IllegalArgumentException(key + " is not run: " + SKIPPED.get(key));
        }
        return Arrays.stream(values()).filter(q -> q.id().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Nexmark query " + id));
    }

    private static Map<String, String> skipped() {
        Map<String, String> skipped = new LinkedHashMap<>();
        skipped.put("q6", "Flink cannot run it: an OVER aggregation (ROWS BETWEEN 10 PRECEDING) over the"
                + " updating result of a ROW_NUMBER Top-1; Flink's OVER windows take append-only input ordered by a"
                + " time attribute (the suite marks q6 unsupported in Flink too)");
        skipped.put("q13", "Flink 2.2 cannot run it as written: its side input is a legacy 'connector.type' ="
                + " 'filesystem' table (removed in Flink 2), and the filesystem connector that replaces it is no"
                + " LookupTableSource, so the processing-time lookup join has no table to look up in");
        return skipped;
    }

    /** Reads a resource as UTF-8. */
    static String read(InputStream in, String name) {
        if (in == null) {
            throw new IllegalStateException("missing resource " + name);
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name, e);
        }
    }
}
