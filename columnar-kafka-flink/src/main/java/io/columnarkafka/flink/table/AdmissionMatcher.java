package io.columnarkafka.flink.table;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Decides, once per sink at planning time, whether a Kafka table sink's shape is reproduced byte for byte
 * by the columnar path; anything not exactly supported is a fallback with its reason. The decision only;
 * {@link ColumnarSinkTranslator} builds what was admitted.
 *
 * <p>Formats are admitted through the format module: a format must be in {@link Formats#supported()},
 * and its encoder must plan for the exact projected types and options ({@link Formats#encoder} rejects
 * any option, value or type it does not write exactly as Flink does).
 */
final class AdmissionMatcher {
    static final Set<String> WRITABLE_METADATA = Set.of("topic", "headers", "timestamp");
    /** Arrow carries precision 7–9 in 64-bit nanoseconds, a narrower range than Flink's TimestampData. */
    private static final int MAX_TIMESTAMP_PRECISION = 6;

    private AdmissionMatcher() {}

    static Admission match(KafkaSinkShape shape) {
        List<String> admitted = new ArrayList<>();
        if (!Formats.supported().contains(shape.valueFormat())) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_VALUE_FORMAT, shape.valueFormat());
        }
        if (shape.hasKey() && !Formats.supported().contains(shape.keyFormat())) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_KEY_FORMAT, shape.keyFormat());
        }
        RowType physical = NullableTypes.deep(shape.physicalType());
        String optionProblem = optionProblem("value", shape.valueFormat(), physical, shape.valueFormatOptions());
        if (optionProblem == null && shape.hasKey()) {
            optionProblem = optionProblem("key", shape.keyFormat(), physical, shape.keyFormatOptions());
        }
        if (optionProblem != null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_OPTION, optionProblem);
        }
        String typeProblem = typeProblem(shape, physical);
        if (typeProblem != null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_TYPE, typeProblem);
        }
        admitted.add(shape.valueFormat() + " value");
        if (shape.hasKey()) {
            admitted.add(shape.keyFormat() + " key");
        }
        if (shape.partitioner() != null) {
            if (shape.partitioner().getClass() != FlinkFixedPartitioner.class) {
                return Admission.fallback(FallbackReason.UNSUPPORTED_PARTITIONER,
                        shape.partitioner().getClass().getName() + " (a custom partitioner reads the row)");
            }
            admitted.add("fixed partitioner");
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
            if (shape.flushMode().isEnabled()) {
                return Admission.fallback(FallbackReason.UNSUPPORTED_OPTION,
                        "sink.buffer-flush.max-rows/interval (reducing upsert buffer)");
            }
            admitted.add("upsert tombstones");
        }
        return Admission.admitted(String.join(", ", admitted));
    }

    /** A problem with the format's options alone (planned over no columns), or null. */
    private static String optionProblem(String scope, String format, RowType physical, Map<String, String> options) {
        try {
            Formats.encoder(format, Projection.of(physical), options);
            return null;
        } catch (IllegalArgumentException e) {
            return scope + "." + format + " options: " + e.getMessage();
        }
    }

    private static String typeProblem(KafkaSinkShape shape, RowType physical) {
        for (RowType.RowField field : physical.getFields()) {
            if (NullableTypes.contains(field.getType(), AdmissionMatcher::nanosecondTimestamp)) {
                return "column '" + field.getName() + "' " + field.getType().asSummaryString()
                        + ": timestamp precision above " + MAX_TIMESTAMP_PRECISION;
            }
        }
        try {
            ArrowLayout.schema(physical);
            Formats.encoder(shape.valueFormat(), Projection.of(physical, shape.valueProjection()),
                    shape.valueFormatOptions());
            if (shape.hasKey()) {
                Formats.encoder(shape.keyFormat(), keyProjection(shape, physical), shape.keyFormatOptions());
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return e.getMessage();
        }
        if (shape.upsertMode() && mapNullKeyFails(shape)) {
            for (int field : shape.valueProjection()) {
                if (NullableTypes.contains(physical.getTypeAt(field), AdmissionMatcher::mapLike)) {
                    return "column '" + physical.getFieldNames().get(field) + "': a map in an upsert value with"
                            + " map-null-key.mode FAIL (Flink never serializes tombstone rows)";
                }
            }
        }
        return null;
    }

    /** The key columns under the names the key format sees: {@code key.fields-prefix} stripped. */
    static Projection keyProjection(KafkaSinkShape shape, RowType physical) {
        Projection keys = Projection.of(physical, shape.keyProjection());
        if (shape.keyPrefix() == null || shape.keyPrefix().isEmpty()) {
            return keys;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < keys.fieldCount(); i++) {
            names.add(keys.name(i).substring(shape.keyPrefix().length()));
        }
        return keys.withNames(names);
    }

    private static boolean mapNullKeyFails(KafkaSinkShape shape) {
        String mode = shape.valueFormatOptions().getOrDefault("map-null-key.mode", "FAIL");
        return mode.equalsIgnoreCase("FAIL");
    }

    private static boolean mapLike(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.MAP || type.getTypeRoot() == LogicalTypeRoot.MULTISET;
    }

    private static boolean nanosecondTimestamp(LogicalType type) {
        if (type instanceof TimestampType t) {
            return t.getPrecision() > MAX_TIMESTAMP_PRECISION;
        }
        if (type instanceof LocalZonedTimestampType t) {
            return t.getPrecision() > MAX_TIMESTAMP_PRECISION;
        }
        return false;
    }
}
