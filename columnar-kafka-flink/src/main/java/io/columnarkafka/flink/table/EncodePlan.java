package io.columnarkafka.flink.table;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the encode operator does with an admitted sink's rows, shipped to the tasks: the Arrow layout of
 * the physical columns, the value and key encoders to plan, how to pick each row's topic and metadata,
 * whether deletions become tombstones, and the batching settings.
 */
record EncodePlan(
        RowType physicalType,
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
        RowType physical = NullableTypes.deep(shape.physicalType());
        return new EncodePlan(
                physical,
                shape.valueFormat(),
                Map.copyOf(shape.valueFormatOptions()),
                Projection.of(physical, shape.valueProjection()),
                shape.keyFormat(),
                Map.copyOf(shape.keyFormatOptions()),
                shape.hasKey() ? AdmissionMatcher.keyProjection(shape, physical) : null,
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
