package io.columnarkafka.flink.sink;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamFlatMap;

/**
 * Runs a {@link WindowedSendFunction} as Flink's flat-map operator does, and tells its {@link SendWindow} when a
 * checkpoint barrier reaches it: in {@link #prepareSnapshotPreBarrier}, which Flink calls along the chain from its
 * head, so before the chained {@code KafkaWriter}'s, whose flush waits for every record sent. A function's own
 * checkpoint hook ({@code snapshotState}) runs only after every operator's pre-barrier step, i.e. after the flush:
 * the window would see the barriers late by each flush and never the backlog the flush found.
 */
public final class WindowedSendOperator<IN, OUT> extends StreamFlatMap<IN, OUT> {
    private static final long serialVersionUID = 1L;

    private transient SendWindowMetrics metrics;
    /** When the last barrier reached this operator; whether its snapshot is still to come. */
    private transient long barrierNanos;
    private transient boolean snapshotPending;

    private WindowedSendOperator(WindowedSendFunction<IN, OUT> function) {
        super(function);
    }

    /** Appends {@code function}'s operator to {@code input}. */
    public static <IN, OUT> SingleOutputStreamOperator<OUT> append(DataStream<IN> input,
            WindowedSendFunction<IN, OUT> function, TypeInformation<OUT> type, String name) {
        return input.transform(name, type, new WindowedSendOperator<>(function));
    }

    @Override
    public void open() throws Exception {
        super.open(); // opens the function, and with it the window
        SendWindow window = function().window();
        if (window != null) {
            metrics = SendWindowMetrics.register(getMetricGroup(), window);
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        SendWindow window = function().window();
        if (window != null) {
            metrics.barrier(window.barrier());
            barrierNanos = System.nanoTime();
            snapshotPending = true;
        }
    }

    /** The function this operator was made with (the only kind its constructor takes). */
    private WindowedSendFunction<IN, OUT> function() {
        return (WindowedSendFunction<IN, OUT>) userFunction;
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (snapshotPending) { // not for a snapshot without a pre-barrier step (an operator already closed)
            metrics.flushed(System.nanoTime() - barrierNanos);
            snapshotPending = false;
        }
    }
}
