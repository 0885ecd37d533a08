package io.columnarkafka.cli;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * Batch index to the same Nexmark bids as {@link BidBatches}, as one Flink {@code RowData} per row (the
 * generator's {@code GenericRowData}): the input of stock Flink's job in {@code demo --compare}, and of
 * the sink benchmark's stock variant with generated input.
 */
public final class BidRows extends RichFlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final long rows;
    private final int batchSize;
    private final long seed;
    private transient BidGenerator generator;

    public BidRows(long rows, int batchSize, long seed) {
        this.rows = rows;
        this.batchSize = batchSize;
        this.seed = seed;
    }

    @Override
    public void open(OpenContext context) {
        generator = new BidGenerator(seed);
    }

    @Override
    public void flatMap(Long batchIndex, Collector<RowData> out) {
        long from = batchIndex * batchSize;
        long to = Math.min(rows, from + batchSize);
        for (long i = from; i < to; i++) {
            out.collect(generator.row(i));
        }
    }
}
