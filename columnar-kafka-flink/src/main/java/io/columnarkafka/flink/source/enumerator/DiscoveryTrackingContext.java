package io.columnarkafka.flink.source.enumerator;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

/**
 * The enumerator context Flink gives, unchanged, plus two observations for {@link
 * NoMoreSplitsAfterDiscovery}: when every one-shot asynchronous call the enumerator started (its
 * discovery, and the split initialisation a discovery may chain) has run its handler, and which readers
 * the enumerator has told that no more splits come. Every method runs on the coordinator thread (handlers
 * of {@code callAsync} included), so the counters need no locks.
 */
final class DiscoveryTrackingContext<SplitT extends SourceSplit> implements SplitEnumeratorContext<SplitT> {
    private final SplitEnumeratorContext<SplitT> context;
    private final Runnable onIdle;
    private final Set<Integer> signalled = new HashSet<>();
    private int callsInFlight;
    private boolean periodic;
    private boolean failed;

    /** @param onIdle run when the last one-shot call in flight has completed its handler without failing */
    DiscoveryTrackingContext(SplitEnumeratorContext<SplitT> context, Runnable onIdle) {
        this.context = context;
        this.onIdle = onIdle;
    }

    /** True once the enumerator scheduled a periodic call: its discovery never ends. */
    boolean periodic() {
        return periodic;
    }

    /** True if {@link #signalNoMoreSplits} reached {@code subtask} since it last registered. */
    boolean signalled(int subtask) {
        return signalled.contains(subtask);
    }

    /** A reader (re-)registered: a signal sent to an earlier attempt does not count for it. */
    void forget(int subtask) {
        signalled.remove(subtask);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        callsInFlight++;
        context.callAsync(callable, (result, error) -> {
            boolean completed = false;
            try {
                handler.accept(result, error);
                completed = error == null;
            } finally {
                callsInFlight--;
                failed |= !completed;
                if (callsInFlight == 0 && !failed) {
                    onIdle.run();
                }
            }
        });
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
        periodic = true;
        context.callAsync(callable, handler, initialDelay, period);
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        signalled.add(subtask);
        context.signalNoMoreSplits(subtask);
    }

    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
        return context.metricGroup();
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        context.sendEventToSourceReader(subtaskId, event);
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, int attemptNumber, SourceEvent event) {
        context.sendEventToSourceReader(subtaskId, attemptNumber, event);
    }

    @Override
    public int currentParallelism() {
        return context.currentParallelism();
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
        return context.registeredReaders();
    }

    @Override
    public Map<Integer, Map<Integer, ReaderInfo>> registeredReadersOfAttempts() {
        return context.registeredReadersOfAttempts();
    }

    @Override
    public void assignSplits(SplitsAssignment<SplitT> newSplitAssignments) {
        context.assignSplits(newSplitAssignments);
    }

    @Override
    public void assignSplit(SplitT split, int subtask) {
        context.assignSplit(split, subtask);
    }

    @Override
    public void runInCoordinatorThread(Runnable runnable) {
        context.runInCoordinatorThread(runnable);
    }

    @Override
    public void setIsProcessingBacklog(boolean isProcessingBacklog) {
        context.setIsProcessingBacklog(isProcessingBacklog);
    }
}
