package io.columnarkafka.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchCommandTest {
    @Test
    void pairsReachTheFlagsInOrder() {
        List<String> seen = new ArrayList<>();
        BenchCommand.forEachFlag(new String[] {"--rows", "10", "--note", "a b"}, (f, v) -> seen.add(f + "=" + v));
        assertThat(seen).containsExactly("--rows=10", "--note=a b");
    }

    @Test
    void aFlagWithoutAValueNamesTheFlag() {
        assertThatThrownBy(() -> BenchCommand.forEachFlag(new String[] {"--rows"}, (f, v) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--rows needs a value");
    }
}
