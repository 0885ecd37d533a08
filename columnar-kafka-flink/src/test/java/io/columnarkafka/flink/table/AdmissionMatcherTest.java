package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.flink.streaming.connectors.kafka.table.SinkBufferFlushMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The SQL gate's decisions for shapes no SQL run can reach here: {@code avro-confluent} (Flink's
 * {@code avro-confluent} format factory is not on Maven Central, so neither table can even be created) and
 * formats with an encoder but no SQL parity test. Shapes are built as {@link KafkaSinkShape#of} would read
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
        RowType oneColumn = (RowType) RowTypes.parse("ROW<id INT NOT NULL>").copy(false);
        for (SqlFormat format : SqlFormat.values()) {
            assertThat(Formats.supported()).contains(format.identifier);
            assertThat(AdmissionMatcher.match(shape(format.identifier, format.identifier, false, oneColumn)).describe())
                    .isEqualTo("admitted: " + format.identifier + " value, " + format.identifier + " key");
        }
    }

    @Test
    void avroSeesTheDeclaredNullabilityJsonSeesNullableTypes() {
        KafkaSinkShape shape = shape("avro", null, false, ROW);
        assertThat(AdmissionMatcher.valueProjection(shape, SqlFormat.AVRO).outputType().asSummaryString())
                .isEqualTo("ROW<`id` INT NOT NULL, `name` STRING> NOT NULL");
        assertThat(AdmissionMatcher.valueProjection(shape, SqlFormat.JSON).outputType().asSummaryString())
                .isEqualTo("ROW<`id` INT, `name` STRING>");
    }

    @Test
    void upsertAvroValueWithAMapOrNestedNotNullFallsBack() {
        RowType withMap = (RowType) RowTypes.parse("ROW<id INT NOT NULL, m MAP<STRING, INT>>").copy(false);
        assertThat(AdmissionMatcher.match(shape("avro", "avro", true, withMap)).describe())
                .startsWith("fallback: UNSUPPORTED_TYPE column 'm': a map in an upsert value");
        RowType nested = (RowType) RowTypes.parse("ROW<id INT NOT NULL, r ROW<a INT NOT NULL>>").copy(false);
        assertThat(AdmissionMatcher.match(shape("avro", "avro", true, nested)).describe())
                .startsWith("fallback: UNSUPPORTED_TYPE column 'r': a nested NOT NULL field");
        assertThat(AdmissionMatcher.match(shape("json", "json", true, nested)).describe())
                .isEqualTo("admitted: json value, json key, upsert tombstones");
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
        return shape(valueFormat, keyFormat, upsert, physical, SinkBufferFlushMode.DISABLED);
    }

    private static KafkaSinkShape shape(String valueFormat, String keyFormat, boolean upsert, RowType physical,
            SinkBufferFlushMode flushMode) {
        return shape(valueFormat, keyFormat, upsert, physical, flushMode, null);
    }

    private static KafkaSinkShape shape(String valueFormat, String keyFormat, boolean upsert, RowType physical,
            SinkBufferFlushMode flushMode, KafkaPartitioner<RowData> partitioner) {
        int[] all = new int[physical.getFieldCount()];
        java.util.Arrays.setAll(all, i -> i);
        return new KafkaSinkShape(physical, keyFormat == null ? new int[0] : new int[] {0}, all, null,
                keyFormat, Map.of(), valueFormat, Map.of(), List.of("t"), null, partitioner, upsert,
                flushMode, null, List.of(), new Properties(), DeliveryGuarantee.AT_LEAST_ONCE,
                null, TransactionNamingStrategy.DEFAULT);
    }
}
