package io.columnarkafka.flink.table;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.arrow.RowKindVector;
import io.columnarkafka.format.json.ChangelogJsonBatchEncoder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides, once per sink at planning time, whether a Kafka table sink's shape is reproduced byte for byte
 * by the columnar path; anything not exactly supported is a fallback with its reason. The decision only;
 * {@link ColumnarSinkTranslator} builds what was admitted.
 *
 * <p>A format is admitted if it passed the SQL gate ({@link SqlFormat}: proven through SQL parity tests, and
 * in {@link Formats#supported()}) and its encoder plans for the exact projected types and options ({@link
 * Formats#encoder} rejects any option, value or type it does not write exactly as Flink does).
 */
final class AdmissionMatcher {
    static final Set<String> WRITABLE_METADATA = Set.of("topic", "headers", "timestamp");
    /**
     * How the sink's batches carry TIMESTAMP and TIMESTAMP_LTZ of every precision: Flink's own millis + nanos
     * of the milli, as the row holds them. A row that never went through a binary row (a json or csv scan
     * chained to the sink, through a Calc or not) holds every fraction digit of its text whatever the
     * precision, and Flink's json and csv serializers write them all (TimestampDigitsSqlITCase); Arrow units
     * would drop them, and Arrow's 64-bit nanoseconds end at 1677 and 2262.
     */
    static final ArrowLayout.NanoTimestamps NANO_TIMESTAMPS =
            ArrowLayout.NanoTimestamps.EVERY_PRECISION_MILLIS_AND_NANOS;

    private AdmissionMatcher() {}

    static Admission match(KafkaSinkShape shape) {
        List<String> admitted = new ArrayList<>();
        SqlFormat valueFormat = SqlFormat.of(shape.valueFormat()).orElse(null);
        if (valueFormat == null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_VALUE_FORMAT,
                    shape.valueFormat() + ": " + SqlFormat.notGatedReason(shape.valueFormat()));
        }
        SqlFormat keyFormat = null;
        if (shape.hasKey()) {
            keyFormat = SqlFormat.of(shape.keyFormat()).orElse(null);
            if (keyFormat == null) {
                return Admission.fallback(FallbackReason.UNSUPPORTED_KEY_FORMAT,
                        shape.keyFormat() + ": " + SqlFormat.notGatedReason(shape.keyFormat()));
            }
        }
        RowType physical = NullableTypes.deep(shape.physicalType());
        String optionProblem = optionProblem("value", valueFormat, shape.valueFormatOptions());
        if (optionProblem == null && shape.hasKey()) {
            optionProblem = optionProblem("key", keyFormat, shape.keyFormatOptions());
        }
        if (optionProblem != null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_OPTION, optionProblem);
        }
        String typeProblem = typeProblem(shape, physical, valueFormat, keyFormat);
        if (typeProblem != null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_TYPE, typeProblem);
        }
        admitted.add(shape.valueFormat() + " value");
        if (shape.hasKey()) {
            admitted.add(shape.keyFormat() + " key");
        }
        if (shape.partitioner() != null) {
            admitted.add(ColumnarSinkTranslator.readsRows(shape.partitioner())
                    ? "custom partitioner " + shape.partitioner().getClass().getName()
                    : "fixed partitioner");
        }
        for (String key : shape.metadataKeys()) {
            if (!WRITABLE_METADATA.contains(key)) {
                return Admission.fallback(FallbackReason.UNSUPPORTED_METADATA, key);
            }
            admitted.add(key + " metadata");
        }
        if (shape.topicPattern() != null) {
            admitted.add("topic-pattern");
        } else if (shape.topics().size() > 1) {
            admitted.add("topic list");
        }
        if (shape.upsertMode()) {
            admitted.add("upsert tombstones");
            if (shape.flushMode().isEnabled()) {
                admitted.add("buffer-flush " + shape.flushMode().getBatchSize() + " rows / "
                        + shape.flushMode().getBatchIntervalMs() + " ms");
            }
        }
        return Admission.admitted(String.join(", ", admitted));
    }

    /** A problem with the format's options alone, or null. */
    static String optionProblem(String scope, SqlFormat format, Map<String, String> options) {
        try {
            format.checkOptions(options);
            return null;
        } catch (IllegalArgumentException e) {
            return scope + "." + format.identifier + " options: " + e.getMessage();
        }
    }

    private static String typeProblem(KafkaSinkShape shape, RowType physical, SqlFormat valueFormat,
            SqlFormat keyFormat) {
        try {
            ArrowLayout.schema(physical, NANO_TIMESTAMPS);
            String rowKinds = rowKindColumn(shape);
            Formats.encoder(shape.valueFormat(), valueProjection(shape, valueFormat, rowKinds),
                    valueOptions(shape, rowKinds));
            if (shape.hasKey()) {
                Formats.encoder(shape.keyFormat(), keyProjection(shape, keyFormat, rowKinds), shape.keyFormatOptions());
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return e.getMessage();
        }
        return null;
    }

    /** The value columns as the value format sees them, in batches with the row-kind column {@code rowKinds} or none. */
    static Projection valueProjection(KafkaSinkShape shape, SqlFormat format, String rowKinds) {
        return Projection.of(batchType(shape, format, rowKinds), shape.valueProjection());
    }

    /** The value format's options, plus the row-kind column {@code rowKinds} if not null. */
    static Map<String, String> valueOptions(KafkaSinkShape shape, String rowKinds) {
        if (rowKinds == null) {
            return shape.valueFormatOptions();
        }
        Map<String, String> options = new HashMap<>(shape.valueFormatOptions());
        options.put(ChangelogJsonBatchEncoder.ROW_KIND_COLUMN, rowKinds);
        return options;
    }

    /**
     * The name of the TINYINT column holding each row's kind, added after the physical columns when the
     * value format writes rows by their kind (debezium-json, canal-json, maxwell-json, ogg-json); null
     * otherwise. A name no column has.
     */
    static String rowKindColumn(KafkaSinkShape shape) {
        SqlFormat value = SqlFormat.of(shape.valueFormat()).orElse(null);
        if (value == null || !value.readsRowKind()) {
            return null;
        }
        return RowKindVector.columnBeside(shape.physicalType().getFieldNames());
    }

    /** The Arrow batch's row type as {@code format} sees it: the physical columns, then any row-kind column. */
    private static RowType batchType(KafkaSinkShape shape, SqlFormat format, String rowKinds) {
        RowType type = format.rowType(shape.physicalType());
        return rowKinds == null ? type : RowDataArrowWriter.withRowKindColumn(type, rowKinds);
    }

    /** The key columns under the names the key format sees: {@code key.fields-prefix} stripped. */
    static Projection keyProjection(KafkaSinkShape shape, SqlFormat format, String rowKinds) {
        Projection keys = Projection.of(batchType(shape, format, rowKinds), shape.keyProjection());
        if (shape.keyPrefix() == null || shape.keyPrefix().isEmpty()) {
            return keys;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < keys.fieldCount(); i++) {
            names.add(keys.name(i).substring(shape.keyPrefix().length()));
        }
        return keys.withNames(names);
    }
}
