package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jmh.annotations.Param;

/**
 * Every format the benchmark times passes its setup on every dataset: the columnar bytes, from the Arrow
 * batch and from Flink's rows transposed, equal Flink's on every row.
 */
class FormatEncoderBenchmarkTest {

    @ParameterizedTest
    @CsvSource({"json, bid, binary", "csv, bid, binary", "avro, bid, binary", "avro-confluent, bid, binary",
        "debezium-json, bid, binary", "protobuf, bid, binary", "raw, bid, binary", "json, adversarial, binary",
        "csv, adversarial, binary", "avro, adversarial, binary", "avro-confluent, adversarial, binary",
        "debezium-json, adversarial, binary", "protobuf, adversarial, binary", "raw, adversarial, binary",
        "json, adversarial, generic", "json, adversarial, boxed", "csv, adversarial, boxed",
        "avro, bid, generic", "protobuf, bid, boxed", "raw, adversarial, generic", "canal-json, adversarial, binary",
        "maxwell-json, adversarial, binary", "ogg-json, adversarial, boxed"})
    void columnarBytesEqualFlinksOnTheBenchmarkRows(String format, String dataset, String rowClass) throws Exception {
        FormatEncoderBenchmark benchmark = new FormatEncoderBenchmark();
        benchmark.format = format;
        benchmark.dataset = dataset;
        benchmark.rowClass = rowClass;
        benchmark.batchSize = 512;
        benchmark.prepare();
        try {
            assertThatCode(() -> new FormatEncoderBenchmark.Columnar().plan(benchmark)).doesNotThrowAnyException();
            FormatEncoderBenchmark.FromRows fromRows = new FormatEncoderBenchmark.FromRows();
            try {
                assertThatCode(() -> fromRows.plan(benchmark)).doesNotThrowAnyException();
            } finally {
                fromRows.close();
            }
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void theBenchmarkRunsEveryFormatAndDatasetByDefault() throws Exception {
        String[] formats = FormatEncoderBenchmark.class.getField("format").getAnnotation(Param.class).value();
        assertThat(Arrays.asList(formats))
                .containsExactlyInAnyOrder("json", "csv", "avro", "avro-confluent", "debezium-json", "canal-json",
                        "maxwell-json", "ogg-json", "protobuf", "raw");
        String[] datasets = FormatEncoderBenchmark.class.getField("dataset").getAnnotation(Param.class).value();
        assertThat(Arrays.asList(datasets)).containsExactlyInAnyOrder("bid", "adversarial");
        String[] jsonDatasets = JsonEncoderBenchmark.class.getField("dataset").getAnnotation(Param.class).value();
        assertThat(Arrays.asList(jsonDatasets)).contains("adversarial");
    }
}
