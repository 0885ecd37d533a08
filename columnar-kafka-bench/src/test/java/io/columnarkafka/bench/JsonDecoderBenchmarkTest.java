package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decoder benchmark's setup passes its parity check on every dataset, and that check forgives only a
 * map's entry order (Flink's maps have none), not a value spelled otherwise.
 */
class JsonDecoderBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"bid", "adversarial", "wide"})
    void decodedRowsEqualFlinksOnTheBenchmarkRows(String dataset) throws Exception {
        JsonDecoderBenchmark benchmark = new JsonDecoderBenchmark();
        benchmark.dataset = dataset;
        benchmark.batchSize = 512;
        benchmark.prepare();
        try {
            assertThatCode(() -> new JsonDecoderBenchmark.Columnar().plan(benchmark)).doesNotThrowAnyException();
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"m\":{\"a\":1,\"b\":2}}|{\"m\":{\"b\":2,\"a\":1}}|true",
        "{\"r\":[{\"m\":{\"a\":null,\"b\":\"x\"}}]}|{\"r\":[{\"m\":{\"b\":\"x\",\"a\":null}}]}|true",
        "{\"d\":1.5}|{\"d\":1.50}|false",
        "{\"d\":1000.0}|{\"d\":1E+3}|false",
        "{\"d\":1}|{\"d\":1.0}|false",
        "{\"s\":\"a\"}|{\"s\":\"b\"}|false",
        "{\"a\":[1,2]}|{\"a\":[2,1]}|false"})
    void parityForgivesOnlyMapEntryOrder(String flink, String columnar, boolean same) throws Exception {
        assertThat(JsonDecoderBenchmark.sameMapsInOtherOrder(flink.getBytes(StandardCharsets.UTF_8),
                columnar.getBytes(StandardCharsets.UTF_8))).isEqualTo(same);
    }
}
