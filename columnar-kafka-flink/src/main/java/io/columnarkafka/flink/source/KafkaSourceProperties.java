package io.columnarkafka.flink.source;

import java.lang.reflect.Field;
import java.util.Properties;
import org.apache.flink.connector.kafka.source.KafkaSource;

/**
 * The consumer properties of a built {@link KafkaSource}. Its builder completes them (byte-array
 * deserializers, {@code enable.auto.commit}, {@code auto.offset.reset} from the starting offsets, a
 * generated group id or client id prefix, the partition discovery interval of bounded mode) and only the
 * source holds the result; the readers must consume with exactly those. {@code KafkaSource} has no public
 * getter, so the field is read once, at build time, and a connector version without it fails the build
 * with this message rather than running with other properties.
 */
final class KafkaSourceProperties {
    private KafkaSourceProperties() {}

    static Properties of(KafkaSource<?> source) {
        try {
            Field field = KafkaSource.class.getDeclaredField("props");
            field.setAccessible(true);
            Properties copy = new Properties();
            copy.putAll((Properties) field.get(source));
            return copy;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot read the consumer properties of flink-connector-kafka's KafkaSource (field 'props');"
                            + " this connector version is not supported",
                    e);
        }
    }
}
