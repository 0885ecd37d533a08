package io.columnarkafka.flink.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Feeds a {@link SendWindow} from the producer: Kafka's {@code interceptor.classes} hook, the only place that
 * sees both the records a producer takes and their acknowledgements, in a producer {@code KafkaSink} creates and
 * owns. Kafka instantiates it per producer; it attaches to the window of the task thread that sends the
 * producer's first record (a {@code KafkaSink} writer's producers belong to its one subtask) and passes records
 * through unchanged.
 */
public final class SendWindowInterceptor implements ProducerInterceptor<byte[], byte[]> {
    private volatile SendWindow window;

    /** {@code properties} with this interceptor after any the user configured, which keep running first. */
    public static Properties installedIn(Properties properties) {
        Properties with = new Properties();
        with.putAll(properties);
        List<String> classes = new ArrayList<>();
        Object configured = properties.get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
        if (configured instanceof List<?> list) {
            list.forEach(c -> classes.add(c instanceof Class<?> type ? type.getName() : c.toString()));
        } else if (configured != null && !configured.toString().isBlank()) {
            for (String name : configured.toString().split(",")) {
                classes.add(name.trim());
            }
        }
        classes.add(SendWindowInterceptor.class.getName());
        with.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, String.join(",", classes));
        return with;
    }

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        SendWindow w = window;
        if (w == null) {
            w = SendWindow.sending();
            if (w == null) {
                return record;
            }
            window = w;
        }
        w.sent((record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length));
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        SendWindow w = window;
        if (w != null) {
            w.acknowledged(metadata, exception);
        }
    }

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
