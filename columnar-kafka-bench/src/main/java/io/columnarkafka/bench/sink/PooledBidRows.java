package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.util.Collector;

/**
 * Variant (a)'s pooled rows: batch index to its Nexmark bids as Flink {@code GenericRowData}, one element
 * per row: pool row {@code i % batch size}, built once per subtask, carrying row {@code i}'s dateTime
 * ({@link PooledIds}: set on the pooled row before it is emitted; the chained sink serializes it before
 * the next one). Generated input uses the demo's {@code BidRows}.
 */
final class PooledBidRows extends RichFlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private static final int DATE_TIME = 5;

    private final BatchRange range;
    private transient GenericRowData[] pool;

    PooledBidRows(BatchRange range) {
        this.range = range;
    }

    @Override
    public void open(OpenContext context) {
        BidGenerator generator = new BidGenerator(RunSpec.SEED);
        pool = new GenericRowData[range.batchSize()];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = generator.row(i);
        }
    }

    @Override
    public void flatMap(Long batch, Collector<RowData> out) {
        long first = range.firstRow(batch);
        int n = range.size(batch);
        for (int r = 0; r < n; r++) {
            pool[r].setField(DATE_TIME, TimestampData.fromEpochMillis(PooledIds.dateTimeMillis(first + r, pool.length)));
            out.collect(pool[r]);
        }
    }
}
