package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.SendWindow;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the encode operator does with an admitted sink's rows, shipped to the tasks: the Arrow layout of
 * the physical columns (every type nullable: Arrow holds any null; each encoder's projection carries the
 * nullability its format must see, {@link SqlFormat#rowType}), the row-kind column added after them for a
 * changelog value format (or null), the value and key encoders to plan, how to pick each row's topic and metadata,
 * whether deletions become tombstones, whether rows are reduced per key first ({@code sink.buffer-flush.*}),
 * the batching settings and the send window's queue delay ({@code sendWindowNanos}: the table's, 0 for none, and
 * none with the delivery guarantee {@code none}, see {@link SendWindow#queueDelayNanos}).
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
        ReducingBuffer reducingBuffer,
        ColumnarOptions.Settings batching,
        long sendWindowNanos,
        String description)
        implements Serializable {

    /** The plan for rows of any kind: a changelog value format reads each row's kind from the row-kind column. */
    static EncodePlan of(KafkaSinkShape shape, ColumnarOptions.Settings batching, String description) {
        return of(shape, batching, description, AdmissionMatcher.rowKindColumn(shape));
    }

    /**
     * The plan for batches of inserts only (the planner stage's Arrow batches): no row-kind column, so a changelog
     * value format writes every row as an INSERT, the envelope Flink's serializer writes for a row of that kind.
     */
    static EncodePlan ofInserts(KafkaSinkShape shape, ColumnarOptions.Settings batching, String description) {
        return of(shape, batching, description, null);
    }

    private static EncodePlan of(KafkaSinkShape shape, ColumnarOptions.Settings batching, String description,
            String rowKindColumn) {
        SqlFormat valueFormat = SqlFormat.of(shape.valueFormat()).orElseThrow();
        return new EncodePlan(
                NullableTypes.deep(shape.physicalType()),
                rowKindColumn,
                shape.valueFormat(),
                Map.copyOf(AdmissionMatcher.valueOptions(shape, rowKindColumn)),
                AdmissionMatcher.valueProjection(shape, valueFormat, rowKindColumn),
                shape.keyFormat(),
                Map.copyOf(shape.keyFormatOptions()),
                shape.hasKey()
                        ? AdmissionMatcher.keyProjection(shape, SqlFormat.of(shape.keyFormat()).orElseThrow(),
                                rowKindColumn)
                        : null,
                new TopicRouter(shape.topics(), shape.topicPattern(), shape.metadataPosition("topic")),
                new RecordMetadata(shape.metadataPosition("timestamp"), shape.metadataPosition("headers")),
                shape.upsertMode(),
                ReducingBuffer.of(shape),
                batching,
                SendWindow.queueDelayNanos(batching.maxQueueDelayNanos(), shape.deliveryGuarantee()),
                description);
    }

    BatchEncoder valueEncoder() {
        return Formats.encoder(valueFormat, valueProjection, valueOptions);
    }

    /** The key encoder, or null when records have no key. */
    BatchEncoder keyEncoder() {
        return keyProjection == null ? null : Formats.encoder(keyFormat, keyProjection, keyOptions);
    }

    /**
     * Flink's reducing upsert buffer ({@code upsert-kafka} with {@code sink.buffer-flush.max-rows} and
     * {@code sink.buffer-flush.interval}): flushed when it holds {@code maxRows} keys, when {@code
     * intervalMillis} passed since the last flush, at every checkpoint and at the end of input.
     *
     * @param physicalType the declared physical columns (the key getters are made from them, as Flink's)
     * @param keyFields the key columns
     */
    record ReducingBuffer(RowType physicalType, int[] keyFields, int maxRows, long intervalMillis)
            implements Serializable {

        /** The buffer Flink's table sink would use for {@code shape}, or null (Flink uses one only for upsert). */
        static ReducingBuffer of(KafkaSinkShape shape) {
            if (!shape.upsertMode() || !shape.flushMode().isEnabled()) {
                return null;
            }
            return new ReducingBuffer(shape.physicalType(), shape.keyProjection().clone(),
                    shape.flushMode().getBatchSize(), shape.flushMode().getBatchIntervalMs());
        }

        LatestRowPerKey newBuffer(TypeSerializer<RowData> copier) {
            return new LatestRowPerKey(physicalType, keyFields, copier);
        }
    }
}
