package io.columnarkafka.bench.cdc;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The CDC benchmark's queries over the {@code orders} changelog ({@link CdcSql#sourceTable}): each a result table
 * ({@code ${SINK}} standing for its connector options) and an INSERT. What their output is compared by, and the
 * columnar plan a query must have for its columnar cells to count as columnar.
 */
enum CdcQuery {
    /**
     * Filter, projection and computed columns into a debezium-json topic (json key): the changelog stays columnar
     * from scan to sink, the row kinds a column of the batches.
     */
    CDC_CALC(Output.RECORDS_IN_ORDER,
            List.of("ColumnarScan", "ColumnarCalc", "ColumnarSink"),
            "CREATE TABLE cdc_orders (id BIGINT, customer STRING, status STRING, amount DECIMAL(12, 2),"
                    + " net DECIMAL(12, 2), created TIMESTAMP(3), items INT, note_length INT) WITH ('key.format' = 'json',"
                    + " 'key.fields' = 'id', 'value.format' = 'debezium-json', 'sink.partitioner' = 'fixed', ${SINK})",
            "INSERT INTO cdc_orders SELECT id, UPPER(customer), status, amount, amount - 1.50, created,"
                    + " quantity * 2, CHAR_LENGTH(note) FROM orders WHERE status <> 'CANCELLED' AND amount > 10"),
    /** A filter, then Flink's group aggregate (it retracts each update's UPDATE_BEFORE) into an upsert topic. */
    CDC_AGG(Output.FINAL_VALUE_PER_KEY, List.of(),
            "CREATE TABLE cdc_customers (customer STRING, orders BIGINT, amount DECIMAL(38, 2), items INT,"
                    + " PRIMARY KEY (customer) NOT ENFORCED) WITH ('key.format' = 'json', 'value.format' = 'json', ${SINK})",
            "INSERT INTO cdc_customers SELECT customer, COUNT(*), SUM(amount), SUM(quantity) FROM orders"
                    + " WHERE customer IS NOT NULL AND status <> 'CANCELLED' GROUP BY customer"),
    /**
     * Filter and projection into an upsert table keyed as the source: columnar from scan to sink, each DELETE and
     * UPDATE_BEFORE row a tombstone (the filter is on a column an update may change, so Flink drops no UPDATE_BEFORE).
     */
    CDC_UPSERT(Output.FINAL_VALUE_PER_KEY, List.of("ColumnarScan", "ColumnarCalc", "ColumnarSink"),
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

    final Output output;
    /** The columnar nodes a columnar cell's plan must hold, with no ArrowToRows edge; empty: any path is measured. */
    final List<String> requiredColumnarNodes;
    private final String resultTable;
    private final String insert;

    CdcQuery(Output output, List<String> requiredColumnarNodes, String resultTable, String insert) {
        this.output = output;
        this.requiredColumnarNodes = requiredColumnarNodes;
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
     * Null if a columnar cell's optimized plan is the path this query needs, else why not (a fallback must not pass
     * as columnar).
     */
    String pathMismatch(String plan) {
        for (String node : requiredColumnarNodes) {
            if (!plan.contains(node + "(")) {
                return "no " + node + " in the plan";
            }
        }
        return !requiredColumnarNodes.isEmpty() && plan.contains("ArrowToRows(") ? "an ArrowToRows edge in the plan" : null;
    }

    static CdcQuery byId(String id) {
        return Arrays.stream(values()).filter(q -> q.id().equals(id.trim().toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no CDC query " + id + "; queries: "
                        + Arrays.stream(values()).map(CdcQuery::id).toList()));
    }
}
