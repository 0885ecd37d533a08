package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The module runs without Flink's runtime: loaded from exactly its runtime classpath (written by the build,
 * {@code target/runtime-classpath.txt}), the sink loads and plans its encoders and the source loads and plans
 * its decoders (the record decoding it shares with the Flink source), while no class of Flink's
 * runtime or DataStream API can be loaded. Flink's {@code flink-table-common} (the type vocabulary of the
 * encoders) and {@code flink-core} under it are the only Flink jars.
 */
class RuntimeClasspathTest {

    @Test
    void noFlinkRuntimeOrStreamingClassIsLoadable() throws Exception {
        Path target = Path.of("target");
        String classpath = Files.readString(target.resolve("runtime-classpath.txt")).trim();
        List<URL> urls = new ArrayList<>();
        urls.add(target.resolve("classes").toUri().toURL());
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
            String jar = Path.of(entry).getFileName().toString();
            assertThat(jar).doesNotStartWith("flink-runtime").doesNotStartWith("flink-streaming")
                    .doesNotStartWith("flink-connector").doesNotStartWith("flink-clients");
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> sink = Class.forName(ArrowKafkaSink.class.getName(), true, loader);
            assertThat(sink.getClassLoader()).isSameAs(loader);
            Class.forName("io.columnarkafka.format.json.JsonBatchEncoder", true, loader);
            Class.forName("org.apache.kafka.clients.producer.KafkaProducer", false, loader);
            Class.forName("org.apache.kafka.clients.consumer.KafkaConsumer", false, loader);
            for (String shared : List.of(ArrowKafkaSource.class.getName(), ArrowKafkaBatch.class.getName(),
                    "io.columnarkafka.client.decode.ChunkDecoder", "io.columnarkafka.client.decode.DecodingSpec",
                    "io.columnarkafka.client.decode.RecordChunk", "io.columnarkafka.client.decode.KafkaMetadata",
                    "io.columnarkafka.client.decode.KafkaDecodeException")) {
                assertThat(Class.forName(shared, true, loader).getClassLoader()).as(shared).isSameAs(loader);
            }
            // validating plans the decoders (DecodingSpec, ChunkDecoder, Formats.decoder) inside the isolated loader
            Class<?> config = Class.forName(ArrowKafkaSourceConfig.class.getName(), true, loader);
            Object source = Class.forName(ArrowKafkaSource.class.getName(), true, loader).getConstructor(config)
                    .newInstance(config.getMethod("fromMap", Map.class).invoke(null, Map.of(
                            "properties.bootstrap.servers", "localhost:1",
                            "scan.partitions", "t:0",
                            "row-type", "ROW<id BIGINT, name STRING, ts TIMESTAMP(3)>",
                            "key.fields", "id", "key.format", "json",
                            "value.format", "json", "scan.startup.mode", "earliest-offset")));
            assertThat(source.getClass().getMethod("validate").invoke(source)).asList().isEmpty();
            assertThat(source.getClass().getMethod("decoding").invoke(source))
                    .isEqualTo("json value (JsonBatchDecoder), json key (JsonBatchDecoder)");
            Class.forName("io.columnarkafka.format.json.JsonBatchDecoder", false, loader);
            for (String flinkClass : List.of(
                    "org.apache.flink.runtime.jobgraph.JobGraph",
                    "org.apache.flink.runtime.state.StateBackend",
                    "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
                    "org.apache.flink.streaming.api.operators.StreamOperator",
                    "org.apache.flink.connector.kafka.sink.KafkaSink",
                    "org.apache.flink.connector.kafka.source.KafkaSource",
                    "org.apache.flink.connector.base.source.reader.SourceReaderBase")) {
                assertThatThrownBy(() -> Class.forName(flinkClass, false, loader))
                        .as(flinkClass).isInstanceOf(ClassNotFoundException.class);
            }
        }
    }
}
