package io.columnarkafka.flink.table;

import io.columnarkafka.flink.internals.PrivateMembers;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;

/**
 * The Kafka settings of the {@link KafkaSource} Flink's {@link KafkaDynamicSource} builds for a table:
 * starting and stopping offsets, boundedness and the completed consumer properties, taken from the source
 * Flink builds itself ({@code createKafkaSource}), so every {@code scan.startup.*} / {@code scan.bounded.*}
 * mode and property means exactly what it means to Flink. Only these settings are used: the columnar
 * source brings its own reader and decoders.
 *
 * @param startingOffsets Flink's starting offsets initializer
 * @param stoppingOffsets Flink's stopping offsets initializer (no stopping offsets when unbounded)
 * @param boundedness whether the scan ends at the stopping offsets
 * @param properties the consumer properties as Flink's source builder completed them
 */
record FlinkKafkaScan(
        OffsetsInitializer startingOffsets,
        OffsetsInitializer stoppingOffsets,
        Boundedness boundedness,
        Properties properties) {

    /** Flink's private factory method of connector 5.0, probed once per JVM. */
    private static final PrivateMembers DYNAMIC_SOURCE = PrivateMembers.of(KafkaDynamicSource.class)
            .method("createKafkaSource", KafkaSource.class, DeserializationSchema.class, DeserializationSchema.class,
                    TypeInformation.class)
            .probe();

    /** The fields of connector 5.0's {@link KafkaSource} that hold its settings (no getters), probed once per JVM. */
    private static volatile PrivateMembers sourceFields = probeSource(KafkaSource.class);

    /**
     * Probes {@code holder} for the settings' fields instead of {@link KafkaSource}: a seam for the planner's test of
     * another connector version, which points it at a class without them.
     */
    static void probeSourceOf(Class<?> holder) {
        sourceFields = probeSource(holder);
    }

    private static PrivateMembers probeSource(Class<?> holder) {
        return PrivateMembers.of(holder)
                .field("props", Properties.class)
                .field("startingOffsetsInitializer", OffsetsInitializer.class)
                .field("stoppingOffsetsInitializer", OffsetsInitializer.class)
                .probe();
    }

    /**
     * Empty when this connector has the method and fields {@link #of} uses; else which is missing. The scan is
     * admitted only when empty, so that a connector of another version falls back to Flink's scan when the table
     * is planned, not when the job is translated.
     */
    static Optional<String> unreadable() {
        return DYNAMIC_SOURCE.unreadable().or(sourceFields::unreadable)
                .map(why -> why + " (not flink-connector-kafka 5.0)");
    }

    /**
     * Builds Flink's {@link KafkaSource} for {@code source} (without deserializers: it is never run) and
     * reads its settings; {@code upsert}: the source is in upsert mode. Only when {@link #unreadable} is empty.
     *
     * @throws IllegalStateException if Flink's builder refuses the source's settings
     */
    static FlinkKafkaScan of(KafkaDynamicSource source, boolean upsert, TypeInformation<?> producedType) {
        try {
            // In upsert mode Flink's deserialization schema insists on a key deserializer; it is never opened or run.
            DeserializationSchema<?> key = upsert ? new SimpleStringSchema() : null;
            KafkaSource<?> kafka = DYNAMIC_SOURCE.invoke(source, "createKafkaSource", KafkaSource.class, key, null,
                    producedType);
            PrivateMembers settings = sourceFields;
            Properties properties = new Properties();
            properties.putAll(settings.read(kafka, "props", Properties.class));
            return new FlinkKafkaScan(
                    settings.read(kafka, "startingOffsetsInitializer", OffsetsInitializer.class),
                    settings.read(kafka, "stoppingOffsetsInitializer", OffsetsInitializer.class),
                    kafka.getBoundedness(),
                    properties);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot build Flink's KafkaSource for the scan", e);
        }
    }
}
