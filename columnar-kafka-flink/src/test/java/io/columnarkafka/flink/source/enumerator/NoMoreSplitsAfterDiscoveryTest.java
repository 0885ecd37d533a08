package io.columnarkafka.flink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.junit.jupiter.api.Test;

/**
 * {@link NoMoreSplitsAfterDiscovery} around an enumerator that behaves as Flink's Kafka enumerator does:
 * a one-time discovery (an asynchronous call) that, finding a change, chains a second call which assigns
 * the new splits and signals "no more splits" itself, and finding none (a restored enumerator) returns
 * without a signal. The wrapper must add the missing signal, after the discovery and after the split
 * assignment, once per reader registration, and never with periodic discovery.
 */
class NoMoreSplitsAfterDiscoveryTest {

    @Test
    void aRestoredEnumeratorWhoseDiscoveryFindsNoChangeSignalsEveryReaderOnceDiscoveryHasRun() throws Exception {
        FakeContext context = new FakeContext();
        NoMoreSplitsAfterDiscovery<FakeSplit, Void> enumerator =
                new NoMoreSplitsAfterDiscovery<>(context, c -> new KafkaLikeEnumerator(c, false, false));
        context.register(0);
        enumerator.addReader(0);
        enumerator.start();
        assertThat(context.events).as("nothing before the discovery has run").isEmpty();

        context.runAsyncCalls();
        context.register(1);
        enumerator.addReader(1);

        assertThat(context.events).containsExactly("no more splits 0", "no more splits 1");
    }

    @Test
    void aDiscoveryThatFindsPartitionsLetsFlinksEnumeratorAssignAndSignalWithoutASecondSignal() throws Exception {
        FakeContext context = new FakeContext();
        NoMoreSplitsAfterDiscovery<FakeSplit, Void> enumerator =
                new NoMoreSplitsAfterDiscovery<>(context, c -> new KafkaLikeEnumerator(c, true, false));
        context.register(0);
        enumerator.addReader(0);
        enumerator.start();
        context.runAsyncCalls();
        context.register(1);
        enumerator.addReader(1);

        assertThat(context.events).containsExactly("assign p0 to 0", "no more splits 0", "assign p1 to 1",
                "no more splits 1");
    }

    @Test
    void aReaderThatRegistersAgainAfterAFailureIsSignalledAgainAfterItsSplitsComeBack() throws Exception {
        FakeContext context = new FakeContext();
        NoMoreSplitsAfterDiscovery<FakeSplit, Void> enumerator =
                new NoMoreSplitsAfterDiscovery<>(context, c -> new KafkaLikeEnumerator(c, false, false));
        context.register(0);
        enumerator.addReader(0);
        enumerator.start();
        context.runAsyncCalls();
        enumerator.addSplitsBack(List.of(new FakeSplit("p0")), 0);
        enumerator.addReader(0);

        assertThat(context.events).containsExactly("no more splits 0", "assign p0 to 0", "no more splits 0");
    }

    @Test
    void periodicDiscoveryNeverEndsSoNoReaderIsSignalled() throws Exception {
        FakeContext context = new FakeContext();
        NoMoreSplitsAfterDiscovery<FakeSplit, Void> enumerator =
                new NoMoreSplitsAfterDiscovery<>(context, c -> new KafkaLikeEnumerator(c, false, true));
        context.register(0);
        enumerator.addReader(0);
        enumerator.start();
        context.runAsyncCalls();
        enumerator.addReader(0);

        assertThat(context.events).isEmpty();
    }

    @Test
    void aFailedDiscoveryIsNotTakenForAFinishedOne() throws Exception {
        FakeContext context = new FakeContext();
        context.failCalls = true;
        NoMoreSplitsAfterDiscovery<FakeSplit, Void> enumerator =
                new NoMoreSplitsAfterDiscovery<>(context, c -> new KafkaLikeEnumerator(c, false, false));
        context.register(0);
        enumerator.start();
        context.runAsyncCalls();
        enumerator.addReader(0);

        assertThat(context.handlerErrors).hasSize(1);
        assertThat(context.events).isEmpty();
    }

    /** A split named by its partition. */
    private record FakeSplit(String splitId) implements SourceSplit {}

    /**
     * Mimics {@code KafkaSourceEnumerator} in bounded mode: discovery without a change returns early
     * (the restored case); with a change, assigns pending splits and signals registered readers, and
     * signals readers registering later.
     */
    private static final class KafkaLikeEnumerator implements SplitEnumerator<FakeSplit, Void> {
        private final SplitEnumeratorContext<FakeSplit> context;
        private final boolean discoveryFindsPartitions;
        private final boolean periodicDiscovery;
        private final Map<Integer, List<FakeSplit>> pending = new HashMap<>();
        private boolean noMoreSplits;

        KafkaLikeEnumerator(SplitEnumeratorContext<FakeSplit> context, boolean discoveryFindsPartitions,
                boolean periodicDiscovery) {
            this.context = context;
            this.discoveryFindsPartitions = discoveryFindsPartitions;
            this.periodicDiscovery = periodicDiscovery;
        }

        @Override
        public void start() {
            if (periodicDiscovery) {
                context.callAsync(() -> 0, (ignored, error) -> {}, 0, 1000);
                return;
            }
            context.callAsync(() -> discoveryFindsPartitions, (change, error) -> {
                if (error != null) {
                    throw new IllegalStateException(error);
                }
                if (change) {
                    context.callAsync(() -> List.of(new FakeSplit("p0"), new FakeSplit("p1")), (splits, e) -> {
                        noMoreSplits = true;
                        for (int i = 0; i < splits.size(); i++) {
                            pending.computeIfAbsent(i, r -> new ArrayList<>()).add(splits.get(i));
                        }
                        context.registeredReaders().keySet().forEach(this::assignPending);
                    });
                }
            });
        }

        private void assignPending(int subtask) {
            List<FakeSplit> splits = pending.remove(subtask);
            if (splits != null) {
                splits.forEach(split -> context.assignSplit(split, subtask));
            }
            if (noMoreSplits) {
                context.signalNoMoreSplits(subtask);
            }
        }

        @Override
        public void addReader(int subtask) {
            assignPending(subtask);
        }

        @Override
        public void addSplitsBack(List<FakeSplit> splits, int subtask) {
            pending.computeIfAbsent(subtask, r -> new ArrayList<>()).addAll(splits);
        }

        @Override
        public void handleSplitRequest(int subtask, String requesterHostname) {}

        @Override
        public Void snapshotState(long checkpointId) {
            return null;
        }

        @Override
        public void close() {}
    }

    /** Records assignments and signals; runs asynchronous calls when the test says so, one by one. */
    private static final class FakeContext implements SplitEnumeratorContext<FakeSplit> {
        final List<String> events = new ArrayList<>();
        final List<Throwable> handlerErrors = new ArrayList<>();
        final Map<Integer, ReaderInfo> readers = new HashMap<>();
        final Queue<Runnable> calls = new ArrayDeque<>();
        boolean failCalls;

        void register(int subtask) {
            readers.put(subtask, new ReaderInfo(subtask, "localhost"));
        }

        void runAsyncCalls() {
            Runnable call;
            while ((call = calls.poll()) != null) {
                call.run();
            }
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            calls.add(() -> {
                T result = null;
                Throwable error = failCalls ? new RuntimeException("broker unreachable") : null;
                if (error == null) {
                    try {
                        result = callable.call();
                    } catch (Exception e) {
                        error = e;
                    }
                }
                try {
                    handler.accept(result, error);
                } catch (RuntimeException e) {
                    handlerErrors.add(e);
                }
            });
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long delay, long period) {}

        @Override
        public void assignSplits(SplitsAssignment<FakeSplit> assignment) {
            assignment.assignment().forEach((subtask, splits) ->
                    splits.forEach(split -> events.add("assign " + split.splitId() + " to " + subtask)));
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            events.add("no more splits " + subtask);
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            return readers;
        }

        @Override
        public int currentParallelism() {
            return 2;
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            runnable.run();
        }
    }
}
