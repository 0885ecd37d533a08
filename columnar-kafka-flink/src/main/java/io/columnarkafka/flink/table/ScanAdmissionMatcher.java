package io.columnarkafka.flink.table;

import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.KafkaMetadata;
import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RowKindVector;
import io.columnarkafka.format.arrow.WideTimestamps;
import io.columnarkafka.format.json.BeforeAfterDecodeOptions;
import io.columnarkafka.format.json.BeforeAfterEvents;
import io.columnarkafka.format.json.DataOldDecodeOptions;
import io.columnarkafka.format.json.DataOldEvents;
import io.columnarkafka.format.json.JsonDecodeOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.streaming.connectors.kafka.config.BoundedMode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decides whether a Kafka table scan is read by the columnar source and decoders with the rows Flink's own
 * {@code KafkaDynamicSource} would produce; anything not exactly supported is a fallback to Flink's source with
 * its reason. The decision only; {@link ColumnarScanTranslator} builds what was admitted.
 *
 * <p>It is taken in two steps. {@link #tableFallback} when the table's source is created, on what every query of
 * the table shares: the formats and their options; a table that fails it is Flink's source with
 * exactly Flink's abilities. {@link #match} on what one query reads, once the planner has pushed its columns and
 * metadata into the source ({@link ColumnarKafkaDynamicSource}): the types of the columns the columnar source would
 * decode for it ({@link KafkaScanShape#reading}) and the metadata columns it reads, so a column the decoders do
 * not plan sends only the queries that decode it to Flink's source. A watermark is admitted whatever its
 * expression: the planner pushes Flink's own generated watermark strategy into the source, which runs it per split
 * on the rows it emits, as Flink's Kafka source does.
 */
final class ScanAdmissionMatcher {

    private ScanAdmissionMatcher() {}

    /** The decision for a scan reading {@code shape}'s columns and metadata (narrowed by {@link KafkaScanShape#reading}). */
    static Admission match(KafkaScanShape shape) {
        Admission table = tableFallback(shape);
        if (table != null) {
            return table;
        }
        SqlFormat valueFormat = SqlFormat.forScan(shape.valueFormat()).orElseThrow();
        SqlFormat keyFormat = shape.hasKey() ? SqlFormat.forScan(shape.keyFormat()).orElseThrow() : null;
        String typeProblem = typeProblem(shape, valueFormat, keyFormat);
        if (typeProblem != null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_TYPE, typeProblem);
        }
        return Admission.admitted(admitted(shape));
    }

    /**
     * The fallback every query of the table shares, or null: a format outside the scan gate, an option a decoder
     * does not reproduce, a format metadata column. An upsert scan is admitted: the columnar source makes tombstones
     * DELETE rows as Flink's source does ({@code DecodingSpec#upsert}); so is a changelog value format (debezium-json,
     * ogg-json, canal-json, maxwell-json), whose decoder gives the row kinds ({@code DecodingSpec#valueRowKinds}).
     *
     * <p>A format metadata column (debezium-json's {@code value.source.timestamp}, ogg-json's {@code value.table},
     * canal-json's {@code value.database}, maxwell-json's {@code value.ingestion-timestamp}, ...) sends the whole
     * table to Flink's source, not only the queries reading it: the columnar decoders produce
     * none, and Flink's Kafka source takes no metadata projection, so its format converts every declared one (a
     * {@code source} field Flink cannot convert fails or skips the record) whatever the query reads.
     */
    static Admission tableFallback(KafkaScanShape shape) {
        for (String key : shape.metadataKeys()) {
            if (KafkaMetadata.of(key).isEmpty()) {
                return Admission.fallback(FallbackReason.UNSUPPORTED_METADATA, key + ": format metadata of "
                        + shape.valueFormat() + ", which Flink's format converts for every declared column;"
                        + " the columnar decoders produce none");
            }
        }
        SqlFormat valueFormat = SqlFormat.forScan(shape.valueFormat()).orElse(null);
        if (valueFormat == null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_VALUE_FORMAT,
                    shape.valueFormat() + ": " + SqlFormat.notScanGatedReason(shape.valueFormat()));
        }
        SqlFormat keyFormat = null;
        if (shape.hasKey()) {
            keyFormat = SqlFormat.forScan(shape.keyFormat()).orElse(null);
            if (keyFormat == null) {
                return Admission.fallback(FallbackReason.UNSUPPORTED_KEY_FORMAT,
                        shape.keyFormat() + ": " + SqlFormat.notScanGatedReason(shape.keyFormat()));
            }
        }
        String optionProblem = decodeOptionProblem("value", valueFormat, shape.valueFormatOptions());
        if (optionProblem == null && keyFormat != null) {
            optionProblem = decodeOptionProblem("key", keyFormat, shape.keyFormatOptions());
        }
        if (optionProblem != null) {
            return Admission.fallback(FallbackReason.UNSUPPORTED_OPTION, optionProblem);
        }
        return null;
    }

    private static String admitted(KafkaScanShape shape) {
        List<String> admitted = new ArrayList<>();
        admitted.add(shape.valueFormat() + " value");
        if (shape.hasKey()) {
            admitted.add(shape.keyFormat() + " key");
        }
        if (shape.upsertMode()) {
            admitted.add("upsert");
        }
        if (!shape.metadataKeys().isEmpty()) {
            admitted.add("metadata " + String.join(" ", shape.metadataKeys()));
        }
        if (shape.watermark()) {
            admitted.add("watermark");
        }
        if (shape.topicPattern() != null) {
            admitted.add("topic-pattern");
        }
        if (shape.boundedMode() != BoundedMode.UNBOUNDED) {
            admitted.add("bounded " + shape.boundedMode().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return String.join(", ", admitted);
    }

    /** The value columns under the names the value format sees, as Flink's source gives them to its format. */
    static RowType valueType(KafkaScanShape shape) {
        return project(shape.physicalType(), shape.valueProjection(), null);
    }

    /** The key columns under the names the key format sees ({@code key.fields-prefix} stripped), or null. */
    static RowType keyType(KafkaScanShape shape) {
        return shape.hasKey() ? project(shape.physicalType(), shape.keyProjection(), shape.keyPrefix()) : null;
    }

    private static RowType project(RowType physical, int[] fields, String prefix) {
        List<RowType.RowField> projected = new ArrayList<>();
        for (int field : fields) {
            RowType.RowField f = physical.getFields().get(field);
            String name = prefix == null || prefix.isEmpty() ? f.getName() : f.getName().substring(prefix.length());
            projected.add(new RowType.RowField(name, f.getType()));
        }
        return new RowType(false, projected);
    }

    /**
     * A problem with a format's options as its decoder reads them, or null: json's decoder refuses {@code
     * decode.json-parser.enabled=false} (Flink's tree-based deserializer, whose coercions differ); the changelog
     * JSON formats read their decoding options (debezium-json's {@code schema-include} true too, which only its
     * serializer refuses; canal-json's {@code database.include} and {@code table.include}: Flink's factory takes any
     * text and compiles it only when it builds its deserializer, so an invalid pattern falls back, to fail there);
     * raw, csv and avro read the options their encoders read (csv's include the deserialization ones, {@code
     * allow-comments} and {@code ignore-parse-errors}; avro refuses {@code encoding=json}).
     */
    private static String decodeOptionProblem(String scope, SqlFormat format, Map<String, String> options) {
        if (format != SqlFormat.JSON && !format.readsRowKind()) {
            return AdmissionMatcher.optionProblem(scope, format, options);
        }
        try {
            if (format.readsRowKind()) {
                changelogDecodeOptions(format.identifier,
                        DecodingSpec.valueDecoderOptions(options, RowKindVector.SCAN_COLUMN));
            } else {
                JsonDecodeOptions.fromMap(options);
            }
            return null;
        } catch (IllegalArgumentException e) {
            return scope + "." + format.identifier + " options: " + e.getMessage();
        }
    }

    /** Reads the decoding options of the changelog JSON format {@code identifier}, as its decoder will. */
    private static void changelogDecodeOptions(String identifier, Map<String, String> options) {
        BeforeAfterEvents beforeAfter = BeforeAfterEvents.of(identifier);
        if (beforeAfter != null) {
            BeforeAfterDecodeOptions.fromMap(beforeAfter, options);
        } else {
            DataOldDecodeOptions.fromMap(DataOldEvents.of(identifier), options);
        }
    }

    private static String typeProblem(KafkaScanShape shape, SqlFormat valueFormat, SqlFormat keyFormat) {
        String timestamps = timestampProblem("value", valueFormat, valueType(shape));
        if (timestamps == null && keyFormat != null) {
            timestamps = timestampProblem("key", keyFormat, keyType(shape));
        }
        if (timestamps != null) {
            return timestamps;
        }
        try {
            ArrowLayout.schema(shape.physicalType());
            Map<String, String> valueOptions = shape.valueRowKinds() ? DecodingSpec.valueDecoderOptions(
                    shape.valueFormatOptions(), ColumnarScanTranslator.DecodedColumns.rowKindColumn(shape.physicalType()))
                    : shape.valueFormatOptions();
            BatchDecoder value = Formats.decoder(shape.valueFormat(), valueType(shape), valueOptions);
            if (shape.hasKey()) {
                BatchDecoder key = Formats.decoder(shape.keyFormat(), keyType(shape), shape.keyFormatOptions());
                return tombstoneKeyProblem(shape, value, key);
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return e.getMessage();
        }
        return null;
    }

    /**
     * A key column the value holds too ({@code value.fields-include} ALL) whose timestamps the key and value
     * decoders lay out differently (json and csv as millis + nanos, avro and raw in Arrow units), or null: in an
     * upsert scan a tombstone's row takes that column from the key, a value's row from the value, both into one
     * column.
     */
    private static String tombstoneKeyProblem(KafkaScanShape shape, BatchDecoder value, BatchDecoder key) {
        if (!shape.upsertMode() || value.timestampLayout() == key.timestampLayout()) {
            return null;
        }
        for (int field : shape.keyProjection()) {
            LogicalType type = shape.physicalType().getTypeAt(field);
            if (Arrays.stream(shape.valueProjection()).anyMatch(v -> v == field)
                    && NullableTypes.contains(type, WideTimestamps::isTimestamp)) {
                return "key column '" + shape.physicalType().getFieldNames().get(field) + "' "
                        + type.asSummaryString() + ": a tombstone's row takes it from the " + shape.keyFormat()
                        + " key, other rows from the " + shape.valueFormat() + " value, whose timestamp layouts differ";
            }
        }
        return null;
    }

    /**
     * A column holding a timestamp of precision 7–9 (at any depth) that a format decoding into Arrow units
     * reads (avro), or null: Arrow's 64-bit nanoseconds are a narrower range than Flink's {@code TimestampData}.
     * json and csv (and the changelog JSON formats, read by json's readers) carry every precision 0–9 as Flink's
     * millis + nanos of the milli ({@code WideTimestamps}), every fraction digit of the text, as Flink's deserialized
     * row holds it whatever the precision.
     */
    static String timestampProblem(String scope, SqlFormat format, RowType type) {
        if (format == SqlFormat.JSON || format == SqlFormat.CSV || format.readsRowKind()) {
            return null;
        }
        for (RowType.RowField field : type.getFields()) {
            if (NullableTypes.contains(field.getType(), WideTimestamps::applies)) {
                return scope + " column '" + field.getName() + "' " + field.getType().asSummaryString()
                        + ": timestamp precision above 6";
            }
        }
        return null;
    }
}
