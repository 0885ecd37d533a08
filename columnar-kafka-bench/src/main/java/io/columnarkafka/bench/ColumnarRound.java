package io.columnarkafka.bench;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleUnaryOperator;

/**
 * One build's columnar decode (JSON, or avro-confluent) of a {@link JsonDecoderBenchmark} dataset (its parity check included), timed one
 * round at a time: {@link #applyAsDouble} decodes batches for that many seconds and returns this thread's CPU
 * nanoseconds per row. For {@code scripts/DecoderAB.java}, which loads two builds of the format classes side by
 * side (a class loader each) and alternates their rounds in one JVM, so both meet the same load: a JDK interface
 * is all the two loaders share.
 */
public final class ColumnarRound implements DoubleUnaryOperator {
    private final JsonDecoderBenchmark data = new JsonDecoderBenchmark();
    private final JsonDecoderBenchmark.Columnar columnar = new JsonDecoderBenchmark.Columnar();
    private final OutputBytes input = new OutputBytes();
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public ColumnarRound(String dataset, Integer batchSize) throws Exception {
        this("json", dataset, batchSize);
    }

    /** The decode of {@code format} ({@link JsonDecoderBenchmark#format}). */
    public ColumnarRound(String format, String dataset, Integer batchSize) throws Exception {
        data.format = format;
        data.dataset = dataset;
        data.batchSize = batchSize;
        data.prepare();
        columnar.plan(data);
    }

    @Override
    public double applyAsDouble(double seconds) {
        long rows = 0;
        long cpuStart = threads.getCurrentThreadCpuTime();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            rows += data.columnarDecode(columnar, input);
        }
        return (threads.getCurrentThreadCpuTime() - cpuStart) / (double) rows;
    }
}
