package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.table.connector.ProviderContext;

/**
 * An exchange Flink's sink node puts in front of a sink, on Arrow batches: a {@link BatchSplit} at the input's
 * parallelism, chained to it, parts each batch by its rows' sink subtasks; {@link BatchPartPartitioner} sends each
 * part to its subtask; there the part's batch is handed on alone, chained to the sink's encode operator.
 */
final class BatchExchange {
    private BatchExchange() {}

    /**
     * {@code batches} moved to {@code split}'s sink subtasks; {@code partitioner} the name and rescaling of Flink's
     * partitioner the exchange stands for.
     */
    static DataStream<ArrowBatch> of(DataStream<ArrowBatch> batches, BatchSplit split, String partitioner,
            SubtaskStateMapper rescaling, String name, ProviderContext uids) {
        SingleOutputStreamOperator<Tuple2<Integer, ArrowBatch>> parts = batches
                .flatMap(split, new TupleTypeInfo<>(BasicTypeInfo.INT_TYPE_INFO, ArrowBatchTypeInfo.INSTANCE))
                .name(name)
                .setParallelism(batches.getParallelism());
        uids.generateUid("columnar-split-batches").ifPresent(parts::uid);
        PartitionTransformation<Tuple2<Integer, ArrowBatch>> moved = new PartitionTransformation<>(
                parts.getTransformation(), new BatchPartPartitioner(partitioner, rescaling));
        moved.setParallelism(split.sinkParallelism);
        SingleOutputStreamOperator<ArrowBatch> received = new DataStream<>(batches.getExecutionEnvironment(), moved)
                .flatMap((FlatMapFunction<Tuple2<Integer, ArrowBatch>, ArrowBatch>) (part, out) -> part.f1.emitTo(out),
                        ArrowBatchTypeInfo.INSTANCE)
                .name("BatchParts")
                .setParallelism(split.sinkParallelism);
        uids.generateUid("columnar-batch-parts").ifPresent(received::uid);
        return received;
    }
}
