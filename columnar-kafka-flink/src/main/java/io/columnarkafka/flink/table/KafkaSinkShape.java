package io.columnarkafka.flink.table;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.streaming.connectors.kafka.table.SinkBufferFlushMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Everything Flink's own factory decided about a Kafka table sink, read from the {@link KafkaDynamicSink}
 * it built (so projections, prefix, topics, partitioner, flush mode and delivery settings are exactly
 * Flink's, not re-derived), plus the format identifiers and format options from the table options, which
 * the sink holds only as opaque {@code EncodingFormat}s.
 *
 * @param physicalType the physical columns (the consumed row is these, then {@link #metadataKeys})
 * @param keyProjection indexes of the key columns, in {@code key.fields} order (empty: no key)
 * @param valueProjection indexes of the value columns
 * @param keyPrefix {@code key.fields-prefix}, or null
 * @param keyFormat the key format identifier, or null
 * @param keyFormatOptions the key format's options, without its prefix
 * @param valueFormat the value format identifier
 * @param valueFormatOptions the value format's options, without its prefix
 * @param topics the topic list, or null with a pattern
 * @param topicPattern the topic pattern, or null with a list
 * @param partitioner Flink's partitioner instance, or null to let Kafka decide
 * @param metadataKeys the writable metadata columns, in consumed-row order
 */
record KafkaSinkShape(
        RowType physicalType,
        int[] keyProjection,
        int[] valueProjection,
        String keyPrefix,
        String keyFormat,
        Map<String, String> keyFormatOptions,
        String valueFormat,
        Map<String, String> valueFormatOptions,
        List<String> topics,
        Pattern topicPattern,
        KafkaPartitioner<RowData> partitioner,
        boolean upsertMode,
        SinkBufferFlushMode flushMode,
        Integer parallelism,
        List<String> metadataKeys,
        Properties properties,
        DeliveryGuarantee deliveryGuarantee,
        String transactionalIdPrefix,
        TransactionNamingStrategy transactionNamingStrategy) {

    /**
     * Reads {@code sink} (after {@code applyWritableMetadata}) and the format choices of {@code options}.
     *
     * @throws IllegalStateException if the sink does not have the fields of flink-connector-kafka 5.0
     */
    @SuppressWarnings("unchecked")
    static KafkaSinkShape of(KafkaDynamicSink sink, Map<String, String> options) {
        String valueFormatKey = options.containsKey("value.format") ? "value.format" : "format";
        String valueFormat = options.get(valueFormatKey);
        String keyFormat = options.get("key.format");
        return new KafkaSinkShape(
                (RowType) read(sink, "physicalDataType", org.apache.flink.table.types.DataType.class)
                        .getLogicalType(),
                read(sink, "keyProjection", int[].class),
                read(sink, "valueProjection", int[].class),
                read(sink, "keyPrefix", String.class),
                keyFormat,
                formatOptions(options, "key.", keyFormat),
                valueFormat,
                formatOptions(options, valueFormatKey.equals("format") ? "" : "value.", valueFormat),
                read(sink, "topics", List.class),
                read(sink, "topicPattern", Pattern.class),
                read(sink, "partitioner", KafkaPartitioner.class),
                read(sink, "upsertMode", Boolean.class),
                read(sink, "flushMode", SinkBufferFlushMode.class),
                read(sink, "parallelism", Integer.class),
                read(sink, "metadataKeys", List.class),
                read(sink, "properties", Properties.class),
                read(sink, "deliveryGuarantee", DeliveryGuarantee.class),
                read(sink, "transactionalIdPrefix", String.class),
                read(sink, "transactionNamingStrategy", TransactionNamingStrategy.class));
    }

    boolean hasKey() {
        return keyProjection.length > 0;
    }

    /** Index in the consumed row of a metadata column, or -1 if it is not written. */
    int metadataPosition(String key) {
        int i = metadataKeys.indexOf(key);
        return i < 0 ? -1 : physicalType.getFieldCount() + i;
    }

    /**
     * Options of a format as Flink's format factory sees them: {@code <scope><format>.<key>} with the
     * scope and format prefix removed (e.g. {@code value.json.encode.ignore-null-fields}).
     */
    static Map<String, String> formatOptions(Map<String, String> options, String scope, String format) {
        Map<String, String> result = new HashMap<>();
        if (format == null) {
            return result;
        }
        String prefix = scope + format + ".";
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                result.put(e.getKey().substring(prefix.length()), e.getValue());
            }
        }
        return result;
    }

    private static <T> T read(KafkaDynamicSink sink, String name, Class<T> type) {
        try {
            Field field = KafkaDynamicSink.class.getDeclaredField(name);
            field.setAccessible(true);
            Object value = field.get(sink);
            return value == null ? null : type.cast(value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot read field '" + name + "' of Flink's KafkaDynamicSink (connector version?)", e);
        }
    }
}
