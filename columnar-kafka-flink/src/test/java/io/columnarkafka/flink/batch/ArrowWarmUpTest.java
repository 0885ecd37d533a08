package io.columnarkafka.flink.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.source.ColumnarKafkaSource;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

class ArrowWarmUpTest {

    @Test
    void startsOncePerClassLoaderAndInitializesArrow() throws Exception {
        CompletableFuture<Void> first = ArrowWarmUp.start();

        first.get(60, TimeUnit.SECONDS);
        assertThat(ArrowWarmUp.start()).isSameAs(first);
        assertThat(new Schema(List.of()).getFields()).isEmpty();
        assertThat(ArrowMemory.allocatedBytes()).isZero();
    }

    @Test
    void theSystemPropertyTurnsItOff() {
        System.setProperty(ArrowWarmUp.PROPERTY, "false");
        try {
            assertThat(ArrowWarmUp.start()).isNull();
        } finally {
            System.clearProperty(ArrowWarmUp.PROPERTY);
        }
    }

    /**
     * A TaskManager deserializes the source when it builds the source task's chain: that starts the warm-up. Checked
     * in a class loader of its own, where nothing else of the suite has started it.
     */
    @Test
    void deserializingTheColumnarSourceStartsIt() throws Exception {
        byte[] source = InstantiationUtil.serializeObject(ColumnarKafkaSource.builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("bids")
                .setRowType("ROW<v STRING>")
                .setValueFormat("json", Map.of())
                .build());
        try (URLClassLoader fresh = new URLClassLoader(testClassPath(), ClassLoader.getPlatformClassLoader())) {
            Method started = fresh.loadClass(ArrowWarmUp.class.getName()).getDeclaredMethod("started");
            started.setAccessible(true);
            assertThat(started.invoke(null)).isNull();

            Object copy = InstantiationUtil.deserializeObject(source, fresh);

            assertThat(copy.getClass().getClassLoader()).isSameAs(fresh);
            CompletableFuture<?> warmUp = (CompletableFuture<?>) started.invoke(null);
            assertThat(warmUp).isNotNull();
            warmUp.get(60, TimeUnit.SECONDS);
        }
    }

    private static URL[] testClassPath() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        return urls.toArray(URL[]::new);
    }
}
