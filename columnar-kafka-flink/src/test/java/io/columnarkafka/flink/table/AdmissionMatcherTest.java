package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.flink.streaming.connectors.kafka.table.SinkBufferFlushMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SQL gate's decisions for shapes no SQL run can reach here: {@code avro-confluent} (Flink's
 * {@code avro-confluent} format factory is not on Maven Central, so neither table can even be created),
 * formats with an encoder but no SQL parity test, and each option or type a format's encoder does not
 * reproduce (the SQL runs of such fallbacks are in {@code KafkaColumnarParityITCase} and {@code
 * FormatParityITCase}). Shapes are built as {@link KafkaSinkShape#of} would read
 * them from Flink's sink.
 */
class AdmissionMatcherTest {
    private static final RowType ROW = (RowType) RowTypes.parse("ROW<id INT NOT NULL, name STRING>").copy(false);

    @Test
    void avroConfluentValueFallsBackWithItsReason() {
        Admission admission = AdmissionMatcher.match(shape("avro-confluent", null, false, ROW));
        assertThat(admission.describe()).isEqualTo("fallback: UNSUPPORTED_VALUE_FORMAT avro-confluent:"
                + " Flink's registry client is not on Maven Central, no SQL oracle");
    }

    @Test
    void avroConfluentKeyFallsBackWithItsReason() {
        Admission admission = AdmissionMatcher.match(shape("json", "avro-confluent", false, ROW));
        assertThat(admission.describe()).isEqualTo("fallback: UNSUPPORTED_KEY_FORMAT avro-confluent:"
                + " Flink's registry client is not on Maven Central, no SQL oracle");
    }

    @Test
    void everyEncoderFormatOutsideTheGateFallsBack() {
        for (String format : Formats.supported()) {
            if (SqlFormat.of(format).isEmpty()) {
                assertThat(AdmissionMatcher.match(shape(format, null, false, ROW)).reason())
                        .as(format).isEqualTo(FallbackReason.UNSUPPORTED_VALUE_FORMAT);
                assertThat(AdmissionMatcher.match(shape("json", format, false, ROW)).reason())
                        .as(format).isEqualTo(FallbackReason.UNSUPPORTED_KEY_FORMAT);
            }
        }
        assertThat(SqlFormat.notGatedReason("raw-future-format")).isEqualTo("no columnar encoder");
    }

    @Test
    void everyGatedFormatHasAnEncoder() {
        for (SqlFormat format : SqlFormat.values()) {
            assertThat(Formats.supported()).contains(format.identifier);
            if (format == SqlFormat.AVRO_CONFLUENT) {
                continue; // gated for scans only (avroConfluentValueFallsBackWithItsReason)
            }
            // protobuf needs its message class; a changelog format is no key format (Flink's rule), so json keys it
            boolean protobuf = format == SqlFormat.PROTOBUF;
            RowType oneColumn = (RowType) RowTypes.parse(protobuf ? "ROW<x INT NOT NULL>" : "ROW<id INT NOT NULL>")
                    .copy(false);
            Map<String, String> options = protobuf ? Map.of("message-class-name", Inner3.class.getName()) : Map.of();
            String key = format.readsRowKind() ? "json" : format.identifier;
            assertThat(AdmissionMatcher.match(shape(format.identifier, options, key,
                            key.equals("json") ? Map.of() : options, false, oneColumn)).describe())
                    .isEqualTo("admitted: " + format.identifier + " value, " + key + " key");
        }
    }

    /**
     * Each option or type a format's encoder does not reproduce, with the reason the sink reports. Options
     * Flink's own factory rejects first (an unknown key, debezium-json {@code schema-include=true}) fail the
     * same way for both connectors and never reach the gate; they are listed so the gate stays safe alone.
     * raw has none: its encoder reproduces every option and type Flink's raw format accepts.
     */
    static Stream<Arguments> unsupported() {
        return Stream.of(
                Arguments.of("csv", Map.of(), "ROW<id INT, m INTERVAL YEAR(2) TO MONTH>",
                        "fallback: UNSUPPORTED_TYPE Unsupported type 'INTERVAL YEAR(2) TO MONTH' for field 'm'."),
                Arguments.of("avro", Map.of(), "ROW<id INT, ts TIMESTAMP(9)>",
                        "fallback: UNSUPPORTED_TYPE Avro does not support TIMESTAMP type with precision: 9"),
                Arguments.of("avro", Map.of("encoding", "json"), "ROW<id INT>",
                        "fallback: UNSUPPORTED_OPTION value.avro options: avro option 'encoding' = 'json':"
                                + " only 'binary' has a columnar encoder ('json' is Flink-only)"),
                Arguments.of("debezium-json", Map.of("schema-include", "true"), "ROW<id INT>",
                        "fallback: UNSUPPORTED_OPTION value.debezium-json options: Debezium JSON serialization"
                                + " doesn't support 'debezium-json.schema-include' option been set to true."),
                Arguments.of("maxwell-json", Map.of("database.include", "db"), "ROW<id INT>",
                        "fallback: UNSUPPORTED_OPTION value.maxwell-json options: unknown json option"
                                + " 'database.include'"),
                Arguments.of("protobuf", Map.of("message-class-name", Inner3.class.getName(), "descriptor-file", "x"),
                        "ROW<x INT>", "fallback: UNSUPPORTED_OPTION value.protobuf options: unknown protobuf option"
                                + " 'descriptor-file'; known: "),
                Arguments.of("avro-confluent", Map.of("url", "http://127.0.0.1:1"), "ROW<id INT>",
                        "fallback: UNSUPPORTED_VALUE_FORMAT avro-confluent: Flink's registry client is not on"
                                + " Maven Central, no SQL oracle"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("unsupported")
    void unsupportedOptionOrTypeFallsBackWithItsReason(String format, Map<String, String> options, String type,
            String expected) {
        RowType physical = (RowType) RowTypes.parse(type).copy(false);
        assertThat(AdmissionMatcher.match(shape(format, options, null, Map.of(), false, physical)).describe())
                .startsWith(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "csv", "debezium-json", "canal-json", "maxwell-json", "ogg-json"})
    void nanosecondTimestampsAtAnyDepthAreAdmittedWhereFlinksFormatWritesThem(String format) {
        RowType physical = (RowType) RowTypes.parse("ROW<id INT, t TIMESTAMP(9), l TIMESTAMP_LTZ(7),"
                + " a ARRAY<TIMESTAMP(8)>, r ROW<x TIMESTAMP_LTZ(9)>>").copy(false);
        assertThat(AdmissionMatcher.match(shape(format, Map.of(), null, Map.of(), false, physical)).describe())
                .isEqualTo("admitted: " + format + " value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "debezium-json", "canal-json", "maxwell-json", "ogg-json"})
    void intervalsAreAdmittedWhereFlinksFormatWritesThem(String format) {
        RowType physical = (RowType) RowTypes.parse("ROW<id INT, m INTERVAL YEAR(2) TO MONTH,"
                + " d INTERVAL DAY(2) TO SECOND(3), a ARRAY<INTERVAL SECOND(3)>>").copy(false);
        assertThat(AdmissionMatcher.match(shape(format, Map.of(), null, Map.of(), false, physical)).describe())
                .isEqualTo("admitted: " + format + " value");
    }

    @Test
    void debeziumJsonReadsRowKindsFromAColumnNamedApartFromEveryColumn() {
        RowType clash = (RowType) RowTypes.parse("ROW<`$row_kind` INT, `$row_kind_` STRING>").copy(false);
        KafkaSinkShape shape = shape("debezium-json", Map.of(), "json", Map.of(), false, clash);
        assertThat(AdmissionMatcher.rowKindColumn(shape)).isEqualTo("$row_kind__");
        assertThat(AdmissionMatcher.valueOptions(shape, "$row_kind__"))
                .containsEntry("row-kind.column", "$row_kind__");
        assertThat(AdmissionMatcher.valueProjection(shape, SqlFormat.DEBEZIUM_JSON, "$row_kind__").batchType()
                .getFieldNames()).containsExactly("$row_kind", "$row_kind_", "$row_kind__");
        assertThat(AdmissionMatcher.keyProjection(shape, SqlFormat.JSON, "$row_kind__").outputType().asSummaryString())
                .isEqualTo("ROW<`$row_kind` INT>");
        assertThat(AdmissionMatcher.rowKindColumn(shape("json", Map.of(), null, Map.of(), false, clash))).isNull();
    }

    @Test
    void avroSeesTheDeclaredNullabilityJsonSeesNullableTypes() {
        KafkaSinkShape shape = shape("avro", null, false, ROW);
        assertThat(AdmissionMatcher.valueProjection(shape, SqlFormat.AVRO, null).outputType().asSummaryString())
                .isEqualTo("ROW<`id` INT NOT NULL, `name` STRING> NOT NULL");
        assertThat(AdmissionMatcher.valueProjection(shape, SqlFormat.JSON, null).outputType().asSummaryString())
                .isEqualTo("ROW<`id` INT, `name` STRING>");
    }

    @Test
    void upsertValuesWithAMapOrNestedNotNullAreAdmitted() {
        // Tombstone rows' values are not encoded (a row selection), so what a format would reject there
        // (a null map key, a null in a nested NOT NULL field) cannot fail the batch.
        RowType withMap = (RowType) RowTypes.parse("ROW<id INT NOT NULL, m MAP<STRING, INT>>").copy(false);
        assertThat(AdmissionMatcher.match(shape("avro", "avro", true, withMap)).describe())
                .isEqualTo("admitted: avro value, avro key, upsert tombstones");
        assertThat(AdmissionMatcher.match(shape("json", "json", true, withMap)).describe())
                .isEqualTo("admitted: json value, json key, upsert tombstones");
        RowType nested = (RowType) RowTypes.parse("ROW<id INT NOT NULL, r ROW<a INT NOT NULL>>").copy(false);
        assertThat(AdmissionMatcher.match(shape("avro", "avro", true, nested)).describe())
                .isEqualTo("admitted: avro value, avro key, upsert tombstones");
    }

    @Test
    void upsertBufferFlushIsAdmittedNatively() {
        SinkBufferFlushMode flush = new SinkBufferFlushMode(100, 1000);
        assertThat(AdmissionMatcher.match(shape("json", "json", true, ROW, flush)).describe())
                .isEqualTo("admitted: json value, json key, upsert tombstones, buffer-flush 100 rows / 1000 ms");
        EncodePlan.ReducingBuffer buffer = EncodePlan.ReducingBuffer.of(shape("json", "json", true, ROW, flush));
        assertThat(buffer.keyFields()).containsExactly(0);
        assertThat(buffer.maxRows()).isEqualTo(100);
        assertThat(buffer.intervalMillis()).isEqualTo(1000L);
        assertThat(EncodePlan.ReducingBuffer.of(shape("json", "json", true, ROW))).isNull();
    }

    @Test
    void everyPartitionerIsAdmittedNativelyAndOnlyACustomOneGetsTheRow() {
        KafkaSinkShape custom = shape("json", null, false, ROW, SinkBufferFlushMode.DISABLED, new RowPartitioner());
        assertThat(AdmissionMatcher.match(custom).describe())
                .isEqualTo("admitted: json value, custom partitioner " + RowPartitioner.class.getName());
        assertThat(ColumnarSinkTranslator.readsRows(custom.partitioner())).isTrue();
        KafkaSinkShape fixed =
                shape("json", null, false, ROW, SinkBufferFlushMode.DISABLED, new FlinkFixedPartitioner<>());
        assertThat(AdmissionMatcher.match(fixed).describe()).isEqualTo("admitted: json value, fixed partitioner");
        assertThat(ColumnarSinkTranslator.readsRows(fixed.partitioner())).isFalse();
        assertThat(ColumnarSinkTranslator.readsRows(null)).isFalse();
    }

    /** A sink writing every column as value and, with a key format, column 0 as key. */
    private static KafkaSinkShape shape(String valueFormat, String keyFormat, boolean upsert, RowType physical) {
        return shape(valueFormat, Map.of(), keyFormat, Map.of(), upsert, physical);
    }

    private static KafkaSinkShape shape(String valueFormat, Map<String, String> valueOptions, String keyFormat,
            Map<String, String> keyOptions, boolean upsert, RowType physical) {
        return shape(valueFormat, valueOptions, keyFormat, keyOptions, upsert, physical, SinkBufferFlushMode.DISABLED,
                null);
    }

    private static KafkaSinkShape shape(String valueFormat, String keyFormat, boolean upsert, RowType physical,
            SinkBufferFlushMode flushMode) {
        return shape(valueFormat, Map.of(), keyFormat, Map.of(), upsert, physical, flushMode, null);
    }

    private static KafkaSinkShape shape(String valueFormat, String keyFormat, boolean upsert, RowType physical,
            SinkBufferFlushMode flushMode, KafkaPartitioner<RowData> partitioner) {
        return shape(valueFormat, Map.of(), keyFormat, Map.of(), upsert, physical, flushMode, partitioner);
    }

    private static KafkaSinkShape shape(String valueFormat, Map<String, String> valueOptions, String keyFormat,
            Map<String, String> keyOptions, boolean upsert, RowType physical, SinkBufferFlushMode flushMode,
            KafkaPartitioner<RowData> partitioner) {
        int[] all = new int[physical.getFieldCount()];
        java.util.Arrays.setAll(all, i -> i);
        return new KafkaSinkShape(physical, keyFormat == null ? new int[0] : new int[] {0}, all, null,
                keyFormat, keyOptions, valueFormat, valueOptions, List.of("t"), null, partitioner, upsert,
                flushMode, null, List.of(), new Properties(), DeliveryGuarantee.AT_LEAST_ONCE,
                null, TransactionNamingStrategy.DEFAULT);
    }
}
