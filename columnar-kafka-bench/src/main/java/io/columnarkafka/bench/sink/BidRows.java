package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * Variant (a)'s rows: batch index to its Nexmark bids as Flink {@code GenericRowData}, one element per
 * row; either pool row {@code i % batch size}, built once per subtask, or generated row {@code i}.
 */
final class BidRows extends RichFlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final BatchRange range;
    private final boolean pooled;
    private transient BidGenerator generator;
    private transient RowData[] pool;

    BidRows(BatchRange range, boolean pooled) {
        this.range = range;
        this.pooled = pooled;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(RunSpec.SEED);
        if (pooled) {
            pool = new RowData[range.batchSize()];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = generator.row(i);
            }
        }
    }

    @Override
    public void flatMap(Long batch, Collector<RowData> out) {
        long first = range.firstRow(batch);
        int n = range.size(batch);
        for (int r = 0; r < n; r++) {
            out.collect(pooled ? pool[r] : generator.row(first + r));
        }
    }
}
