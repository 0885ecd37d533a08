package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.StateBackendLoader;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code --state heap|rocksdb}: parsed, carried to the cell JVM, set in the configuration of every variant's cells (the
 * recovery clusters' too: both build on {@link CellRunner#stateAndCheckpoints}), loadable by Flink from that
 * configuration on the harness's class path (the backend Flink's task managers then build), and named in both
 * reports.
 */
class CellStateBackendTest {

    @Test
    void parsesHeapAndRocksdbOnly() {
        assertThat(NexmarkBenchmark.parse(new String[0]).cellSpec("b:9092", "in", NexmarkQuery.Q4, Variant.STOCK, false,
                0, "1").state()).isEqualTo(CellStateBackend.HEAP);
        assertThat(CellStateBackend.parse("RocksDB")).isEqualTo(CellStateBackend.ROCKSDB);
        assertThatThrownBy(() -> CellStateBackend.parse("forst")).hasMessageContaining("--state is heap or rocksdb");
        assertThat(NexmarkBenchmark.USAGE).contains("[--state heap|rocksdb]", "  --state ");
        assertThatThrownBy(() -> NexmarkBenchmark.parse(new String[] {"--flink-conf", "state.backend.type=rocksdb"}))
                .hasMessageContaining("set with --state heap|rocksdb, not --flink-conf state.backend.type");
    }

    @Test
    void everyVariantsCellRunsTheChosenBackendAsFlinkLoadsIt() throws Exception {
        NexmarkBenchmark rocksdb = NexmarkBenchmark.parse(new String[] {"--state", "rocksdb"});
        NexmarkBenchmark heap = NexmarkBenchmark.parse(new String[0]);
        for (Variant variant : List.of(Variant.STOCK, Variant.COLUMNAR)) {
            for (double failAt : new double[] {0, 0.5}) {
                CellSpec spec = rocksdb.cellSpec("b:9092", "in", NexmarkQuery.Q4, variant, false, failAt, "1");
                CellSpec carried = CellSpec.fromArgs(spec.toArgs().toArray(String[]::new));
                assertThat(carried).isEqualTo(spec);
                Configuration conf = CellRunner.stateAndCheckpoints(carried);
                assertThat(conf.toMap()).as(variant.id())
                        .containsEntry("state.backend.type", "rocksdb")
                        .containsEntry("execution.checkpointing.incremental", "true");
                assertThat(load(conf)).isInstanceOf(EmbeddedRocksDBStateBackend.class);
                assertThat(load(conf).getName()).isEqualTo(CellStateBackend.ROCKSDB.backendName());
                assertThat(((EmbeddedRocksDBStateBackend) load(conf)).isIncrementalCheckpointsEnabled()).isTrue();

                CellSpec plain = heap.cellSpec("b:9092", "in", NexmarkQuery.Q4, variant, false, failAt, "1");
                Configuration defaults = CellRunner.stateAndCheckpoints(
                        CellSpec.fromArgs(plain.toArgs().toArray(String[]::new)));
                assertThat(defaults.toMap()).containsEntry("state.backend.type", "hashmap")
                        .containsEntry("execution.checkpointing.incremental", "false");
                assertThat(load(defaults)).isInstanceOf(HashMapStateBackend.class);
                assertThat(load(defaults).getName()).isEqualTo(CellStateBackend.HEAP.backendName());
            }
        }
    }

    @Test
    void aCellThatRanAnotherBackendFails() {
        CellStateBackend.ROCKSDB.check("EmbeddedRocksDBStateBackend");
        assertThatThrownBy(() -> CellStateBackend.ROCKSDB.check("HashMapStateBackend"))
                .hasMessage("the job ran with state backend HashMapStateBackend, not EmbeddedRocksDBStateBackend"
                        + " (--state rocksdb)");
        assertThatThrownBy(() -> CellStateBackend.HEAP.check(null)).hasMessageContaining("state backend null");
    }

    @Test
    void bothReportsNameTheBackend() throws Exception {
        for (Map.Entry<String, String> state : Map.of("rocksdb", "RocksDB state with incremental checkpoints",
                "heap", "heap state").entrySet()) {
            NexmarkBenchmark bench = NexmarkBenchmark.parse(new String[] {"--state", state.getKey()});
            List<CellResult> cells = List.of(
                    FlinkOptionsTest.measured(bench.cellSpec("b:9092", "in", NexmarkQuery.Q4, Variant.STOCK, false, 0, "1")),
                    FlinkOptionsTest.measured(bench.cellSpec("b:9092", "in", NexmarkQuery.Q4, Variant.COLUMNAR, false, 0, "2")));
            NexmarkReport report = new NexmarkReport(cells, "test", "", "0.1 0 0", "0.2 0 0", 1000, 0, 1, 2, 1000, 2,
                    42, ClientSettings.DEFAULTS);
            FixedRateReport fixedRate = new FixedRateReport(report, 1000, 2);
            assertThat(report.markdown()).contains("parallelism 2, " + state.getValue() + ", 1000 ms checkpoints");
            assertThat(fixedRate.markdown()).contains("parallelism 2, " + state.getValue() + ", 1000 ms checkpoints");
            ObjectMapper json = new ObjectMapper();
            assertThat(json.readTree(report.json()).path("state").asText()).isEqualTo(state.getKey());
            JsonNode fixed = json.readTree(fixedRate.json());
            assertThat(fixed.path("state").asText()).isEqualTo(state.getKey());
        }
    }

    private static StateBackend load(Configuration conf) throws Exception {
        return StateBackendLoader.loadStateBackendFromConfig(conf, CellStateBackendTest.class.getClassLoader(),
                LoggerFactory.getLogger(CellStateBackendTest.class));
    }
}
