package io.columnarkafka.flink.source;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;

/**
 * Emits each decoded batch as one {@link ArrowBatch}, handing its ownership downstream (the {@code
 * ArrowBatch} rules): a chained consumer gets the vectors as they are and closes them; across a shuffle
 * the batch is written as Arrow IPC and freed at that moment. If the hand-over throws, the batch is
 * closed here. Each batch names the split it was read from ({@link ArrowBatch#splitId()}), for the
 * per-split state of a watermark strategy.
 *
 * <p>{@link #LENDING} lends each batch instead ({@link ArrowBatch#lend}): for a scan whose batches several
 * consumers read (a planner scan shared by a query's branches), the output frees the batch itself once the
 * hand-over to all of them has returned.
 */
public final class ArrowBatchOutput implements BatchOutputFactory<ArrowBatch>, BatchOutput<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    /** Hands each batch's ownership downstream, to its one consumer. */
    public static final ArrowBatchOutput INSTANCE = new ArrowBatchOutput(false);

    /** Lends each batch to every consumer for the hand-over, then frees it. */
    public static final ArrowBatchOutput LENDING = new ArrowBatchOutput(true);

    private final boolean lending;

    private ArrowBatchOutput(boolean lending) {
        this.lending = lending;
    }

    @Override
    public BatchOutput<ArrowBatch> create(SourceReaderContext context) {
        return this;
    }

    @Override
    public TypeInformation<ArrowBatch> producedType() {
        return ArrowBatchTypeInfo.INSTANCE;
    }

    @Override
    public void emit(VectorSchemaRoot rows, long timestamp, String splitId, SourceOutput<ArrowBatch> output) {
        VectorSchemaRoot returned = emitAndReturn(rows, timestamp, splitId, output);
        if (returned != null) {
            returned.close();
        }
    }

    /** A lending output returns the rows once the hand-over is over; one that hands them on returns null. */
    @Override
    public VectorSchemaRoot emitAndReturn(VectorSchemaRoot rows, long timestamp, String splitId,
            SourceOutput<ArrowBatch> output) {
        if (!lending) {
            handOver(rows, timestamp, splitId, output);
            return null;
        }
        ArrowBatch batch = ArrowBatch.lend(rows, splitId);
        boolean handedOver = false;
        try {
            output.collect(batch, timestamp);
            handedOver = true;
        } finally {
            if (!handedOver) {
                batch.reclaim();
            }
        }
        return batch.takeBack();
    }

    private static void handOver(VectorSchemaRoot rows, long timestamp, String splitId,
            SourceOutput<ArrowBatch> output) {
        ArrowBatch batch = ArrowBatch.fromSplit(rows, splitId);
        try {
            output.collect(batch, timestamp);
        } catch (Throwable t) {
            try {
                batch.close();
            } catch (RuntimeException suppressed) {
                t.addSuppressed(suppressed);
            }
            throw t;
        }
    }

    private Object readResolve() {
        return lending ? LENDING : INSTANCE;
    }
}
