package io.columnarkafka.flink.table;

import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;

/**
 * Tests' access to the package-private probe seams of the Flink internals the stage reads: plans as on a Flink (or
 * connector) that keeps them elsewhere. No mock of Flink: the probe looks at another class, here one without the
 * members. {@link #close} probes Flink's own classes again.
 */
public final class FlinkInternalsSeam implements AutoCloseable {
    private FlinkInternalsSeam() {}

    /** Probes {@code holder} for the parts of Flink's local window aggregate operator ({@link ArrowLocalWindowAggOperator}). */
    public static FlinkInternalsSeam localWindowAggPartsOf(Class<?> holder) {
        ArrowLocalWindowAggOperator.probePartsOf(holder);
        return new FlinkInternalsSeam();
    }

    /** Probes {@code holder} for the settings' fields of the connector's {@link KafkaSource} ({@link FlinkKafkaScan}). */
    public static FlinkInternalsSeam kafkaSourceFieldsOf(Class<?> holder) {
        FlinkKafkaScan.probeSourceOf(holder);
        return new FlinkInternalsSeam();
    }

    @Override
    public void close() {
        ArrowLocalWindowAggOperator.probePartsOf(LocalSlicingWindowAggOperator.class);
        FlinkKafkaScan.probeSourceOf(KafkaSource.class);
    }
}
