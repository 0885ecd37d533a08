package io.columnarkafka.bench;

import io.columnarkafka.bench.SmallBatchChain.Stage;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The read phase of a stateless Nexmark cell without Kafka and Flink around it: {@link SmallBatchChain} through
 * the sink's encode ({@link Stage#ENCODE}: the scan's decode of the event json, the query's columnar calc from
 * {@link StatelessPrograms}, the json encode and copy-out of every kept record), one thread, on the same events
 * over and over. {@link #applyAsDouble} runs it for that many seconds and returns this thread's CPU nanoseconds
 * per input event. Loaded by {@code scripts/DecoderAB.java} (format {@code read-phase}, the query as the
 * dataset) to compare two builds in one JVM; {@link #main} runs the queries in rotated rounds for a profiler
 * ({@code bin/bench-read-phase}).
 */
public final class ReadPhaseRound implements DoubleUnaryOperator, AutoCloseable {
    private final BufferAllocator allocator = new RootAllocator();
    private final SmallBatchChain chain;
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Keeps the chain's output live, so no stage is optimised away. */
    private long checksum;

    /** The shape {@code DecoderAB} constructs its rounds with; {@code format} is {@code read-phase}. */
    public ReadPhaseRound(String format, String query, Integer batchSize) {
        if (!format.equals("read-phase")) {
            throw new IllegalArgumentException("format " + format + " is not read-phase");
        }
        chain = new SmallBatchChain(batchSize, allocator, StatelessPrograms.of(query),
                SmallBatchChain.DecoderBuffers.KEPT);
    }

    @Override
    public double applyAsDouble(double seconds) {
        long events = 0;
        long cpuStart = threads.getCurrentThreadCpuTime();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            checksum += chain.step(Stage.ENCODE);
            events += chain.batchSize();
        }
        return (threads.getCurrentThreadCpuTime() - cpuStart) / (double) events;
    }

    @Override
    public void close() {
        chain.close();
        allocator.close();
    }

    /** {@code [queries (q0,q10,q21)] [batch size (512)] [seconds a round (2)] [rounds (10)]}; the first round warms up. */
    public static void main(String[] args) {
        String[] queries = (args.length > 0 ? args[0] : "q0,q10,q21").split(",");
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 2;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        List<ReadPhaseRound> chains = new ArrayList<>();
        List<List<Double>> figures = new ArrayList<>();
        for (String query : queries) {
            chains.add(new ReadPhaseRound("read-phase", query, batch));
            figures.add(new ArrayList<>());
        }
        long checksum = 0;
        for (int round = 0; round <= rounds; round++) {
            for (int k = 0; k < queries.length; k++) {
                int q = Math.floorMod(k + round, queries.length);
                double nanos = chains.get(q).applyAsDouble(seconds);
                if (round > 0) {
                    figures.get(q).add(nanos);
                }
            }
        }
        for (int q = 0; q < queries.length; q++) {
            List<Double> f = figures.get(q);
            Collections.sort(f);
            checksum += chains.get(q).checksum;
            chains.get(q).close();
            System.out.printf("%s batch %d: CPU ns per event median %.1f (%.1f - %.1f) over %d rounds%n",
                    queries[q], batch, f.get(f.size() / 2), f.get(0), f.get(f.size() - 1), f.size());
        }
        System.out.println("checksum " + checksum);
    }
}
