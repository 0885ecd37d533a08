package io.columnarkafka.flink.table;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** What the Arrow-to-rows edge ({@link ArrowToRowsOperator}) hands Flink's row operator after it. */
public enum EdgeRows {
    /**
     * Each selected row written as Flink's {@code BinaryRowData} from the vectors ({@link
     * ArrowInPlaceRowView#binaryRow}): Flink's network serializer and its chained copy then copy bytes, and its
     * key selectors read the binary row, as behind Flink's own Calc.
     */
    BINARY,
    /**
     * A view over the batch ({@code ColumnarRowData}): Flink's serializer converts each row field by field
     * ({@code RowDataSerializer.toBinaryRow}) for the network, and copies it field by field when chained.
     */
    VIEWS;

    /** The session option the planner stage reads; the A/B switch of the benchmark. */
    public static final ConfigOption<EdgeRows> OPTION = ConfigOptions.key("columnar-kafka.planner.edge-rows")
            .enumType(EdgeRows.class)
            .defaultValue(BINARY)
            .withDescription("What the Arrow-to-rows edge of the columnar planner stage hands Flink's row operators:"
                    + " BINARY (binary rows written from the vectors) or VIEWS (row views over the batch).");
}
