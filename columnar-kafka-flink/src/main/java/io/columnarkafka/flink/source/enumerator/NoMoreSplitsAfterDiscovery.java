package io.columnarkafka.flink.source.enumerator;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * A bounded source's enumerator (Flink's {@code KafkaSourceEnumerator}, unchanged) that tells every
 * reader "no more splits" once its one-time partition discovery has run, also when that discovery found
 * nothing new.
 *
 * <p>Why: Flink's Kafka enumerator declares "no more splits" only when a discovery yields a partition
 * change (FLINK-31006, open in flink-connector-kafka 5.0.0). An enumerator restored from a checkpoint or
 * savepoint has every partition in its state already, so its discovery yields none and its readers,
 * having read their splits to the stopping offsets, wait forever for the signal: a bounded job restored
 * (rescaled or not) never finishes. Here, as soon as the last asynchronous call of the discovery has run
 * its handler (so any split it found is already assigned or pending for a reader not yet registered),
 * each registered reader not yet told is told, and each reader that registers later is told after
 * Flink's enumerator has assigned it its pending splits. A reader is told at most once per registration:
 * a second signal could reach a task that has already finished and fail the job. An enumerator with
 * periodic discovery never ends its discovery, as in Flink, and is left alone.
 */
public final class NoMoreSplitsAfterDiscovery<SplitT extends SourceSplit, StateT> implements SplitEnumerator<SplitT, StateT> {
    private final DiscoveryTrackingContext<SplitT> context;
    private final SplitEnumerator<SplitT, StateT> enumerator;
    private boolean discoveryDone;

    /**
     * @param createEnumerator makes Flink's enumerator on the context it is given (which must be the
     *     one it uses for every call)
     */
    public NoMoreSplitsAfterDiscovery(
            SplitEnumeratorContext<SplitT> context,
            Function<SplitEnumeratorContext<SplitT>, SplitEnumerator<SplitT, StateT>> createEnumerator) {
        this.context = new DiscoveryTrackingContext<>(context, this::onDiscoveryDone);
        this.enumerator = createEnumerator.apply(this.context);
    }

    private void onDiscoveryDone() {
        if (context.periodic()) {
            return;
        }
        discoveryDone = true;
        context.registeredReaders().keySet().forEach(this::signalUnlessSignalled);
    }

    private void signalUnlessSignalled(int subtask) {
        if (!context.signalled(subtask)) {
            context.signalNoMoreSplits(subtask);
        }
    }

    @Override
    public void start() {
        enumerator.start();
    }

    @Override
    public void addReader(int subtask) {
        context.forget(subtask);
        enumerator.addReader(subtask);
        if (discoveryDone) {
            signalUnlessSignalled(subtask);
        }
    }

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtask) {
        enumerator.addSplitsBack(splits, subtask);
    }

    @Override
    public void handleSplitRequest(int subtask, String requesterHostname) {
        enumerator.handleSplitRequest(subtask, requesterHostname);
    }

    @Override
    public void handleSourceEvent(int subtask, SourceEvent event) {
        enumerator.handleSourceEvent(subtask, event);
    }

    @Override
    public StateT snapshotState(long checkpointId) throws Exception {
        return enumerator.snapshotState(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        enumerator.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        enumerator.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void close() throws IOException {
        enumerator.close();
    }
}
