package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/** Variant (a)'s rows: batch index to its Nexmark bids as Flink {@code GenericRowData}, one element per row. */
final class BidRows extends RichFlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final BatchRange range;
    private transient BidGenerator generator;

    BidRows(BatchRange range) {
        this.range = range;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(RunSpec.SEED);
    }

    @Override
    public void flatMap(Long batch, Collector<RowData> out) {
        long first = range.firstRow(batch);
        int n = range.size(batch);
        for (int r = 0; r < n; r++) {
            out.collect(generator.row(first + r));
        }
    }
}
