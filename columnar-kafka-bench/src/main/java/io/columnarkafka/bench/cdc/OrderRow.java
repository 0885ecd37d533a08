package io.columnarkafka.bench.cdc;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * A row of the {@code orders} table the CDC benchmark's changelog is of (a null component is SQL NULL, except
 * {@code id}, the primary key). {@link #TYPE} is the Flink row type of the benchmark's source table; the column
 * order is the JSON field order Debezium and Flink write.
 */
record OrderRow(long id, String customer, BigDecimal amount, LocalDateTime created, Integer quantity, Boolean paid,
                String status, String note) {
    /** The columns, as the source table declares them. */
    static final String COLUMNS = "id BIGINT, customer STRING, amount DECIMAL(12, 2), created TIMESTAMP(3),"
            + " quantity INT, paid BOOLEAN, status STRING, note STRING";

    static final RowType TYPE = (RowType) LogicalTypeParser.parse("ROW<" + COLUMNS + ">",
            OrderRow.class.getClassLoader());
}
