package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.bench.JvmWarmUp;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recovery cell's cluster processes' JVM options: the TaskManagers' extra ones from {@code
 * TASKMANAGER_JAVA_OPTS} (split at spaces, {@code {dir}} filled in), and a variant's JVM properties on every process,
 * the spare TaskManager's included, read off the command lines the cluster would launch (none is launched).
 */
class RecoveryCellTest {
    private static final Path DIR = Path.of("/tmp/cluster-7");
    private static final String WARM_UP_OFF = "-Dcolumnarkafka.arrow.warm-up=false";

    @Test
    void unsetOrBlankAddsNothing() {
        assertThat(RecoveryCell.taskManagerJvmOptions(null, DIR)).isEmpty();
        assertThat(RecoveryCell.taskManagerJvmOptions("  ", DIR)).isEmpty();
    }

    @Test
    void splitsAtSpacesAndPutsTheClusterDirectoryInPlaceOfItsPlaceholder() {
        assertThat(RecoveryCell.taskManagerJvmOptions(
                " -XX:StartFlightRecording=filename={dir}/,dumponexit=true   -Xlog:class+load:file={dir}/cl.log ", DIR))
                .containsExactly("-XX:StartFlightRecording=filename=/tmp/cluster-7/,dumponexit=true",
                        "-Xlog:class+load:file=/tmp/cluster-7/cl.log");
    }

    @Test
    void everyProcessOfTheClusterGetsTheVariantsPropertiesLast() {
        Map<String, List<String>> commands = RecoveryCell.cluster(spec(Variant.parse("columnar:edge-rows=VIEWS+"
                + WARM_UP_OFF)), DIR, DIR.resolve("positions"), "-Dcolumnarkafka.arrow.warm-up=true -Xlog:gc").commands();

        assertThat(commands).as("the job manager, the job's TaskManager and the spare")
                .containsOnlyKeys("jobmanager", "taskmanager-1", "taskmanager-2");
        assertThat(commands.get("jobmanager")).containsSubsequence("-Xmx512m", WARM_UP_OFF, "-cp")
                .doesNotContain("-Xlog:gc");
        for (String taskManager : List.of("taskmanager-1", "taskmanager-2")) {
            assertThat(commands.get(taskManager)).as(taskManager)
                    .containsSubsequence("-Xmx384m", "-Dcolumnarkafka.arrow.warm-up=true", "-Xlog:gc", WARM_UP_OFF,
                            "-cp", "org.apache.flink.runtime.taskexecutor.TaskManagerRunner");
        }
    }

    @Test
    void variantsWithoutPropertiesAddNoneToTheCluster() {
        for (Variant variant : List.of(Variant.STOCK, Variant.COLUMNAR, Variant.CONTROL,
                Variant.parse("columnar:edge-rows=VIEWS"))) {
            RecoveryCell.cluster(spec(variant), DIR, DIR.resolve("positions"), null).commands().forEach(
                    (process, command) -> assertThat(command).as(variant.id() + " " + process)
                            .noneMatch(option -> option.startsWith("-Dcolumnarkafka.")));
        }
    }

    private static CellSpec spec(Variant variant) {
        return new CellSpec(NexmarkQuery.Q5, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "localhost:9092", "in", "out",
                "run", 0.5, 0, true, ClientSettings.DEFAULTS, "/tmp/checkpoints", "/tmp/result", JvmWarmUp.OFF);
    }
}
