package io.columnarkafka.flink.table;

import io.columnarkafka.client.decode.DecodingSpec;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.streaming.connectors.kafka.config.BoundedMode;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * Everything Flink's own factory decided about a Kafka table source, read from the {@link
 * KafkaDynamicSource} it built (projections, prefix, topics, bounded mode, upsert mode, exactly Flink's;
 * the Kafka settings the runtime needs come from Flink's own {@code KafkaSource}, {@link FlinkKafkaScan}), plus what the table declares and the source learns only later from the planner: the metadata
 * columns and whether a watermark is defined, and the format identifiers and options.
 *
 * @param physicalType the physical columns
 * @param keyProjection indexes of the key columns, in {@code key.fields} order (empty: no key)
 * @param valueProjection indexes of the value columns
 * @param keyPrefix {@code key.fields-prefix}, or null
 * @param keyFormat the key format identifier, or null
 * @param keyFormatOptions the key format's options, without its prefix
 * @param valueFormat the value format identifier
 * @param valueFormatOptions the value format's options, without its prefix
 * @param topics the topic list, or null with a pattern
 * @param topicPattern the topic pattern, or null with a list
 * @param metadataKeys the metadata keys the table declares (its metadata columns), in schema order
 * @param watermark whether the table defines a watermark
 * @param watermarkOnEvent whether {@code scan.watermark.emit.strategy} is {@code on-event} (Flink's default,
 *     {@code on-periodic}, otherwise)
 */
record KafkaScanShape(
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
        BoundedMode boundedMode,
        boolean upsertMode,
        Integer parallelism,
        List<String> metadataKeys,
        boolean watermark,
        boolean watermarkOnEvent) {

    /**
     * Reads {@code source} as Flink's factory built it, the format choices of {@code options} and the
     * metadata columns and watermark of {@code schema}.
     *
     * @throws IllegalStateException if the source does not have the fields of flink-connector-kafka 5.0
     */
    @SuppressWarnings("unchecked")
    static KafkaScanShape of(KafkaDynamicSource source, Map<String, String> options, ResolvedSchema schema) {
        String valueFormatKey = options.containsKey("value.format") ? "value.format" : "format";
        String valueFormat = options.get(valueFormatKey);
        String keyFormat = options.get("key.format");
        List<String> metadataKeys = new ArrayList<>();
        for (Column column : schema.getColumns()) {
            if (column instanceof Column.MetadataColumn metadata) {
                metadataKeys.add(metadata.getMetadataKey().orElse(metadata.getName()));
            }
        }
        return new KafkaScanShape(
                (RowType) read(source, "physicalDataType", org.apache.flink.table.types.DataType.class)
                        .getLogicalType(),
                read(source, "keyProjection", int[].class),
                read(source, "valueProjection", int[].class),
                read(source, "keyPrefix", String.class),
                keyFormat,
                KafkaSinkShape.formatOptions(options, "key.", keyFormat),
                valueFormat,
                KafkaSinkShape.formatOptions(options, valueFormatKey.equals("format") ? "" : "value.", valueFormat),
                read(source, "topics", List.class),
                read(source, "topicPattern", Pattern.class),
                read(source, "boundedMode", BoundedMode.class),
                read(source, "upsertMode", Boolean.class),
                read(source, "parallelism", Integer.class),
                List.copyOf(metadataKeys),
                !schema.getWatermarkSpecs().isEmpty(),
                "on-event".equalsIgnoreCase(options.get(FactoryUtil.WATERMARK_EMIT_STRATEGY.key())));
    }

    boolean hasKey() {
        return keyProjection.length > 0;
    }

    /** Whether the value format gives each row's kind (debezium-json, ogg-json, ...; {@link DecodingSpec#valueFormatGivesRowKinds}). */
    boolean valueRowKinds() {
        return DecodingSpec.valueFormatGivesRowKinds(valueFormat);
    }

    /** Whether the scan's rows have kinds other than INSERT: an upsert scan, or a changelog value format. */
    boolean rowKinds() {
        return upsertMode || valueRowKinds();
    }

    /**
     * This shape narrowed to what one query makes the columnar source read: the physical columns {@code columns}
     * (indexes in table order, which hold every key column) and the metadata keys {@code metadata}. The decision
     * is taken on it ({@link ScanAdmissionMatcher#match}); the runtime is built from the table's shape.
     */
    KafkaScanShape reading(int[] columns, List<String> metadata) {
        List<RowType.RowField> fields = new ArrayList<>();
        int[] position = new int[physicalType.getFieldCount()];
        Arrays.fill(position, -1);
        for (int column : columns) {
            position[column] = fields.size();
            fields.add(physicalType.getFields().get(column));
        }
        return new KafkaScanShape(new RowType(physicalType.isNullable(), fields), remap(keyProjection, position),
                remap(valueProjection, position), keyPrefix, keyFormat, keyFormatOptions, valueFormat,
                valueFormatOptions, topics, topicPattern, boundedMode, upsertMode, parallelism, List.copyOf(metadata),
                watermark, watermarkOnEvent);
    }

    /** The fields of {@code projection} that have a position, at that position. */
    private static int[] remap(int[] projection, int[] position) {
        return Arrays.stream(projection).map(field -> position[field]).filter(p -> p >= 0).toArray();
    }

    private static <T> T read(KafkaDynamicSource source, String name, Class<T> type) {
        try {
            Field field = KafkaDynamicSource.class.getDeclaredField(name);
            field.setAccessible(true);
            Object value = field.get(source);
            return value == null ? null : type.cast(value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot read field '" + name + "' of Flink's KafkaDynamicSource (connector version?)", e);
        }
    }
}
