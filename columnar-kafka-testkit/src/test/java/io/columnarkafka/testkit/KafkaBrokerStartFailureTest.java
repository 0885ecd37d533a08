package io.columnarkafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start failures: no broker is ever ready here, so this class is fast. */
class KafkaBrokerStartFailureTest {

    @TempDir
    Path base;

    @Test
    void childJvmThatDiesFailsWithTheTailOfItsLogAndLeavesNoFiles() {
        assertThatThrownBy(() -> KafkaBroker.builder()
                .baseDir(base)
                .jvmArg("-XX:+TestkitNoSuchVmOption")
                .startupTimeout(Duration.ofSeconds(30))
                .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code 1 before becoming ready")
                .hasMessageContaining("TestkitNoSuchVmOption");
        assertThat(base).isEmptyDirectory();
    }

    @Test
    void invalidBrokerPropertyFailsAtFormatting() {
        assertThatThrownBy(() -> KafkaBroker.builder().baseDir(base).brokerProperty("num.io.threads", "many").start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Formatting Kafka storage failed")
                .hasMessageContaining("num.io.threads");
        assertThat(base).isEmptyDirectory();
    }

    @Test
    void managedPropertiesCannotBeOverridden() {
        assertThatThrownBy(() -> KafkaBroker.builder().brokerProperty("listeners", "PLAINTEXT://:9092"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("managed by KafkaBroker");
        assertThatThrownBy(() -> KafkaBroker.builder().brokerProperty("log.dirs", "/tmp/x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
