package io.columnarkafka.flink.source;

import io.columnarkafka.flink.internals.PrivateMembers;
import java.util.Properties;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;

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

    /**
     * The source's properties with one change that no broker sees: keys and values are handed out by
     * Kafka's {@link ByteBufferDeserializer}, a view of each record's bytes in the fetched buffer, instead
     * of the {@code byte[]} copy {@code ByteArrayDeserializer} makes per record (the decoder reads the
     * views in place, so that copy would be the consumer's only per-record copy of the data). Every fetch,
     * poll and offset setting is the source's, as stock {@code KafkaSource} uses them.
     */
    static Properties forReaders(KafkaSource<?> source) {
        Properties properties = of(source);
        properties.setProperty(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class.getName());
        properties.setProperty(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class.getName());
        return properties;
    }

    /** The field of connector 5.0's {@link KafkaSource} that holds the properties (no getter), probed once per JVM. */
    private static final PrivateMembers SOURCE = PrivateMembers.of(KafkaSource.class).field("props", Properties.class)
            .probe();

    private static Properties of(KafkaSource<?> source) {
        SOURCE.unreadable().ifPresent(why -> {
            throw new IllegalStateException("cannot read the consumer properties of flink-connector-kafka's"
                    + " KafkaSource: " + why + "; this connector version is not supported");
        });
        Properties copy = new Properties();
        copy.putAll(SOURCE.read(source, "props", Properties.class));
        return copy;
    }
}
