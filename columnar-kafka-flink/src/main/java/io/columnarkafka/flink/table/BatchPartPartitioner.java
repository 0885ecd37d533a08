package io.columnarkafka.flink.table;

import io.columnarkafka.flink.batch.ArrowBatch;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Sends each part of a batch a {@link BatchSplit} made to the sink subtask it names. Its rows are those Flink's
 * partitioner sends there, so it is named as that one and a rescaled restore gives in-flight parts to subtasks as that
 * one's ({@code rescaling}: {@code RANGE} for key groups, {@code ROUND_ROBIN} for round-robin).
 */
final class BatchPartPartitioner extends StreamPartitioner<Tuple2<Integer, ArrowBatch>> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final SubtaskStateMapper rescaling;

    BatchPartPartitioner(String name, SubtaskStateMapper rescaling) {
        this.name = name;
        this.rescaling = rescaling;
    }

    @Override
    public int selectChannel(SerializationDelegate<StreamRecord<Tuple2<Integer, ArrowBatch>>> record) {
        return record.getInstance().getValue().f0;
    }

    @Override
    public StreamPartitioner<Tuple2<Integer, ArrowBatch>> copy() {
        return this;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return rescaling;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
