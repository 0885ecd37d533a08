package io.columnarkafka.flink.source;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The deserializer {@code KafkaSourceBuilder} insists on for the delegate {@code KafkaSource}, which
 * only enumerates and assigns splits: records are decoded in batches by the columnar reader, never here.
 */
final class NoRecordDeserializer implements KafkaRecordDeserializationSchema<Object> {
    private static final long serialVersionUID = 1L;

    static final NoRecordDeserializer INSTANCE = new NoRecordDeserializer();

    private NoRecordDeserializer() {}

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Object> out) {
        throw new UnsupportedOperationException("records are decoded in batches by ColumnarKafkaSource's reader");
    }

    @Override
    public TypeInformation<Object> getProducedType() {
        return Types.GENERIC(Object.class);
    }
}
