package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Param;

/**
 * Every format the benchmark times passes its setup: the columnar bytes, from the Arrow batch and from
 * Flink's rows transposed, equal Flink's on every row.
 */
class FormatEncoderBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"json", "csv", "avro", "avro-confluent", "debezium-json", "protobuf", "raw"})
    void columnarBytesEqualFlinksOnTheBenchmarkRows(String format) throws Exception {
        FormatEncoderBenchmark benchmark = new FormatEncoderBenchmark();
        benchmark.format = format;
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
    void theBenchmarkRunsEveryFormatByDefault() throws Exception {
        String[] formats = FormatEncoderBenchmark.class.getField("format").getAnnotation(Param.class).value();
        assertThat(Arrays.asList(formats))
                .containsExactlyInAnyOrder("json", "csv", "avro", "avro-confluent", "debezium-json", "protobuf", "raw");
    }
}
