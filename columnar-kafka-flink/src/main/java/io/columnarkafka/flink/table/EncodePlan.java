package io.columnarkafka.flink.table;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the encode operator does with an admitted sink's rows, shipped to the tasks: the Arrow layout of
 * the physical columns (every type nullable: Arrow holds any null; each encoder's projection carries the
 * nullability its format must see, {@link SqlFormat#rowType}), the row-kind column added after them for a
 * changelog value format (or null), the value and key encoders to plan, how to pick each row's topic and metadata,
 * whether deletions become tombstones, and the batching settings.
 */
record EncodePlan(
        RowType physicalType,
        String rowKindColumn,
        String valueFormat,
        Map<String, String> valueOptions,
        Projection valueProjection,
        String keyFormat,
        Map<String, String> keyOptions,
        Projection keyProjection,
        TopicRouter topics,
        RecordMetadata metadata,
        boolean upsertMode,
        ColumnarOptions.Settings batching,
        String description)
        implements Serializable {

    static EncodePlan of(KafkaSinkShape shape, ColumnarOptions.Settings batching, String description) {
        SqlFormat valueFormat = SqlFormat.of(shape.valueFormat()).orElseThrow();
        return new EncodePlan(
                NullableTypes.deep(shape.physicalType()),
                AdmissionMatcher.rowKindColumn(shape),
                shape.valueFormat(),
                Map.copyOf(AdmissionMatcher.valueOptions(shape, valueFormat)),
                AdmissionMatcher.valueProjection(shape, valueFormat),
                shape.keyFormat(),
                Map.copyOf(shape.keyFormatOptions()),
                shape.hasKey()
                        ? AdmissionMatcher.keyProjection(shape, SqlFormat.of(shape.keyFormat()).orElseThrow())
                        : null,
                new TopicRouter(shape.topics(), shape.topicPattern(), shape.metadataPosition("topic")),
                new RecordMetadata(shape.metadataPosition("timestamp"), shape.metadataPosition("headers")),
                shape.upsertMode(),
                batching,
                description);
    }

    BatchEncoder valueEncoder() {
        return Formats.encoder(valueFormat, valueProjection, valueOptions);
    }

    /** The key encoder, or null when records have no key. */
    BatchEncoder keyEncoder() {
        return keyProjection == null ? null : Formats.encoder(keyFormat, keyProjection, keyOptions);
    }
}
