package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.PlannerOptionsInPlan;
import io.columnarkafka.planner.PlannerOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;

/**
 * The CDC benchmark's queries over the {@code orders} changelog ({@link CdcSql#sourceTable}): each a result table
 * ({@code ${SINK}} standing for its connector options) and an INSERT. What their output is compared by, and the
 * columnar plan a query must have, with mini-batch off or on, for its columnar cells to count as columnar ({@link
 * #requiredPath}).
 */
enum CdcQuery {
    /**
     * Filter, projection and computed columns into a debezium-json topic (json key): the changelog stays columnar
     * from scan to sink, the row kinds a column of the batches.
     */
    CDC_CALC(Output.RECORDS_IN_ORDER,
            "CREATE TABLE cdc_orders (id BIGINT, customer STRING, status STRING, amount DECIMAL(12, 2),"
                    + " net DECIMAL(12, 2), created TIMESTAMP(3), items INT, note_length INT) WITH ('key.format' = 'json',"
                    + " 'key.fields' = 'id', 'value.format' = 'debezium-json', 'sink.partitioner' = 'fixed', ${SINK})",
            "INSERT INTO cdc_orders SELECT id, UPPER(customer), status, amount, amount - 1.50, created,"
                    + " quantity * 2, CHAR_LENGTH(note) FROM orders WHERE status <> 'CANCELLED' AND amount > 10"),
    /** A filter, then Flink's group aggregate (it retracts each update's UPDATE_BEFORE) into an upsert topic. */
    CDC_AGG(Output.FINAL_VALUE_PER_KEY,
            "CREATE TABLE cdc_customers (customer STRING, orders BIGINT, amount DECIMAL(38, 2), items INT,"
                    + " PRIMARY KEY (customer) NOT ENFORCED) WITH ('key.format' = 'json', 'value.format' = 'json', ${SINK})",
            "INSERT INTO cdc_customers SELECT customer, COUNT(*), SUM(amount), SUM(quantity) FROM orders"
                    + " WHERE customer IS NOT NULL AND status <> 'CANCELLED' GROUP BY customer"),
    /**
     * Flink's retracting MAX and MIN per customer (each value's rows counted in a map, the extreme given up when its
     * last row is retracted) of a DECIMAL, an INT and a VARCHAR, into an upsert topic.
     */
    CDC_EXTREMES(Output.FINAL_VALUE_PER_KEY,
            "CREATE TABLE cdc_extremes (customer STRING, largest DECIMAL(12, 2), smallest DECIMAL(12, 2), most INT,"
                    + " last_status STRING, orders BIGINT, PRIMARY KEY (customer) NOT ENFORCED) WITH ("
                    + "'key.format' = 'json', 'value.format' = 'json', ${SINK})",
            "INSERT INTO cdc_extremes SELECT customer, MAX(amount), MIN(amount), MAX(quantity), MAX(status), COUNT(*)"
                    + " FROM orders WHERE customer IS NOT NULL GROUP BY customer"),
    /**
     * Filter and projection into an upsert table keyed as the source: columnar from scan to sink, each DELETE and
     * UPDATE_BEFORE row a tombstone (the filter is on a column an update may change, so Flink drops no UPDATE_BEFORE).
     */
    CDC_UPSERT(Output.FINAL_VALUE_PER_KEY,
            "CREATE TABLE cdc_latest (id BIGINT, customer STRING, status STRING, amount DECIMAL(12, 2), paid BOOLEAN,"
                    + " created TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED) WITH ('key.format' = 'json',"
                    + " 'value.format' = 'json', ${SINK})",
            "INSERT INTO cdc_latest SELECT id, customer, status, amount, paid, created FROM orders"
                    + " WHERE amount > 10");

    /** What a cell's output must equal stock's by. */
    enum Output {
        /** The committed key and value bytes of every record, per partition in offset order. */
        RECORDS_IN_ORDER,
        /** The final value per key (a tombstone deletes it). */
        FINAL_VALUE_PER_KEY
    }

    /**
     * A columnar path a plan must hold: every one of {@code nodes}, each EXPLAIN line of one showing {@code attribute}
     * (empty: any), and, if {@code noEdge}, no {@code ArrowToRows} edge; unless the cell's variant sets {@code
     * offSwitch} (a planner path choice, if any) to false, when the plan must show instead that the option took effect
     * ({@link PlannerOptionsInPlan}), so an A/B of the option measures the path it names.
     */
    record RequiredPath(List<String> nodes, String attribute, boolean noEdge,
                        Optional<ConfigOption<Boolean>> offSwitch) {
        private static final Pattern EDGE_REASON = Pattern.compile("ArrowToRows\\(reason=\\[(.*?)], rows=\\[");

        /** Any plan is measured. */
        static final RequiredPath ANY = new RequiredPath(List.of(), "", false, Optional.empty());
        /** Columnar from the input topic to the output topic: no row between them. */
        static final RequiredPath SCAN_CALC_SINK = new RequiredPath(
                List.of("ColumnarScan", "ColumnarCalc", "ColumnarSink"), "", true, Optional.empty());
        /** The local half of a two-phase aggregate computed on the batches' vectors, not on a row view of them. */
        static final RequiredPath VECTORISED_LOCAL_AGGREGATE = new RequiredPath(List.of("ColumnarLocalGroupAggregate"),
                "local=[vectorised]", false, Optional.of(PlannerOptions.VECTORISED_LOCAL_GROUP_AGG));

        /**
         * Null if {@code plan} (EXPLAIN's optimized plan, a node a line) of a columnar cell whose variant sets {@code
         * plannerOptions} (relative keys) holds this path, or shows that the variant's {@code offSwitch=false} turned
         * it off; else why not. A plan contradicting the switch throws ({@link PlannerOptionsInPlan#describe}).
         */
        String mismatch(String plan, Map<String, String> plannerOptions) {
            Optional<String> off = offSwitch.map(o -> o.key().substring(PlannerOptions.PREFIX.length()))
                    .filter(key -> "false".equalsIgnoreCase(plannerOptions.get(key)));
            if (off.isEmpty()) {
                return mismatch(plan);
            }
            String shown = PlannerOptionsInPlan.describe(Map.of(off.get(), plannerOptions.get(off.get())), plan);
            return PlannerOptionsInPlan.notShown(shown) ? shown + edgeReasons(plan) : null;
        }

        /**
         * Null if {@code plan} (EXPLAIN's optimized plan, a node a line) holds this path, else why not, with the
         * reasons of the plan's {@code ArrowToRows} edges: the stage's own word on what it did not take.
         */
        String mismatch(String plan) {
            for (String node : nodes) {
                List<String> lines = plan.lines().filter(line -> line.contains(node + "(")).toList();
                if (lines.isEmpty()) {
                    return "no " + node + " in the plan" + edgeReasons(plan);
                }
                if (!lines.stream().allMatch(line -> line.contains(attribute))) {
                    return "a " + node + " without " + attribute + " in the plan" + edgeReasons(plan);
                }
            }
            return noEdge && plan.contains("ArrowToRows(") ? "an ArrowToRows edge in the plan" + edgeReasons(plan)
                    : null;
        }

        private static String edgeReasons(String plan) {
            List<String> reasons = EDGE_REASON.matcher(plan).results().map(m -> m.group(1)).toList();
            return reasons.isEmpty() ? "" : " (edge: " + String.join("; ", reasons) + ")";
        }

        /** What the report and docs say of it, e.g. {@code ColumnarLocalGroupAggregate with local=[vectorised]}. */
        String describe() {
            return nodes.isEmpty() ? "any" : String.join(" → ", nodes)
                    + (attribute.isEmpty() ? "" : " with " + attribute) + (noEdge ? " with no ArrowToRows edge" : "");
        }
    }

    final Output output;
    private final String resultTable;
    private final String insert;

    CdcQuery(Output output, String resultTable, String insert) {
        this.output = output;
        this.resultTable = resultTable;
        this.insert = insert;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    boolean upsert() {
        return output == Output.FINAL_VALUE_PER_KEY;
    }

    String resultTable(String sinkOptions) {
        return resultTable.replace("${SINK}", sinkOptions);
    }

    String insert() {
        return insert;
    }

    /**
     * The path a columnar cell of this query must plan with mini-batch off or on ({@link RequiredPath#mismatch}: a
     * fallback must not pass as columnar); the one place the rule is written.
     */
    RequiredPath requiredPath(boolean miniBatch) {
        return switch (this) {
            case CDC_CALC, CDC_UPSERT -> RequiredPath.SCAN_CALC_SINK;
            // Mini-batch makes Flink's aggregate two-phase: a local aggregate before the exchange, which must run on
            // the vectors, retractions included. Without it the aggregate is Flink's one-phase GroupAggregate behind
            // an ArrowToRows edge, and the scan and Calc before it are what is measured.
            case CDC_AGG, CDC_EXTREMES -> miniBatch ? RequiredPath.VECTORISED_LOCAL_AGGREGATE : RequiredPath.ANY;
        };
    }

    static CdcQuery byId(String id) {
        return Arrays.stream(values()).filter(q -> q.id().equals(id.trim().toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no CDC query " + id + "; queries: "
                        + Arrays.stream(values()).map(CdcQuery::id).toList()));
    }
}
