package io.columnarkafka.flink.table;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
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

    /**
     * Builds Flink's {@link KafkaSource} for {@code source} (without deserializers: it is never run) and
     * reads its settings; {@code upsert}: the source is in upsert mode.
     *
     * @throws IllegalStateException if the connector does not have the methods and fields of version 5.0
     */
    static FlinkKafkaScan of(KafkaDynamicSource source, boolean upsert, TypeInformation<?> producedType) {
        try {
            Method create = KafkaDynamicSource.class.getDeclaredMethod(
                    "createKafkaSource", DeserializationSchema.class, DeserializationSchema.class, TypeInformation.class);
            create.setAccessible(true);
            // In upsert mode Flink's deserialization schema insists on a key deserializer; it is never opened or run.
            DeserializationSchema<?> key = upsert ? new SimpleStringSchema() : null;
            KafkaSource<?> kafka = (KafkaSource<?>) create.invoke(source, key, null, producedType);
            Properties properties = new Properties();
            properties.putAll(read(kafka, "props", Properties.class));
            return new FlinkKafkaScan(
                    read(kafka, "startingOffsetsInitializer", OffsetsInitializer.class),
                    read(kafka, "stoppingOffsetsInitializer", OffsetsInitializer.class),
                    kafka.getBoundedness(),
                    properties);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot build Flink's KafkaSource for the scan (flink-connector-kafka version?)", e);
        }
    }

    private static <T> T read(KafkaSource<?> kafka, String name, Class<T> type) throws ReflectiveOperationException {
        Field field = KafkaSource.class.getDeclaredField(name);
        field.setAccessible(true);
        return type.cast(field.get(kafka));
    }
}
