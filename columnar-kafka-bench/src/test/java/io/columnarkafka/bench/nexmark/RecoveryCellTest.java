package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The TaskManagers' extra JVM options from {@code TASKMANAGER_JAVA_OPTS}: split at spaces, {@code {dir}} filled in. */
class RecoveryCellTest {
    private static final Path DIR = Path.of("/tmp/cluster-7");

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
}
