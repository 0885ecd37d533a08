package io.columnarkafka.bench.sink;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.util.Collector;

/**
 * Variant (a)'s rows: batch index to its Nexmark bids as Flink {@code GenericRowData}, one element per
 * row; either pool row {@code i % batch size}, built once per subtask, carrying row {@code i}'s
 * dateTime ({@link PooledIds}: set on the pooled row before it is emitted; the chained sink serializes
 * it before the next one), or generated row {@code i}.
 */
final class BidRows extends RichFlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private static final int DATE_TIME = 5;

    private final BatchRange range;
    private final boolean pooled;
    private transient BidGenerator generator;
    private transient GenericRowData[] pool;

    BidRows(BatchRange range, boolean pooled) {
        this.range = range;
        this.pooled = pooled;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(RunSpec.SEED);
        if (pooled) {
            pool = new GenericRowData[range.batchSize()];
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
            if (pooled) {
                pool[r].setField(DATE_TIME, TimestampData.fromEpochMillis(PooledIds.dateTimeMillis(first + r, pool.length)));
                out.collect(pool[r]);
            } else {
                out.collect(generator.row(first + r));
            }
        }
    }
}
