package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointByVertexTest {
    @Test
    void eachFigureIsItsNearestRankMedianOverTheCheckpointsAndTheSizeAlsoItsLargest() {
        // Four checkpoints: the nearest-rank p50 is the 2nd smallest, whatever order they came in.
        CheckpointByVertex vertex = CheckpointByVertex.of("GroupAggregate[9]", new long[] {400, 100, 300, 200},
                new long[] {7, 5, 9, 6}, new long[] {1, 0, 3, 2}, new long[] {40, 10, 30, 20},
                new long[] {90, 60, 80, 70}, new long[] {0, 12, 4, 8});
        assertThat(vertex).isEqualTo(new CheckpointByVertex("GroupAggregate[9]", 200, 400, 6, 1, 20, 70, 4));
    }

    @Test
    void aCellWithoutCheckpointsHasZeroFiguresAndALongNameIsShortened() {
        String chain = "Source: ColumnarScanExecNode[15] -> ColumnarCalcExecNode[16] -> LocalWindowAggregate[17]";
        CheckpointByVertex vertex = CheckpointByVertex.of(chain, new long[0], new long[0], new long[0], new long[0],
                new long[0], new long[0]);
        assertThat(vertex.vertex()).isEqualTo(chain.substring(0, 70) + "...");
        assertThat(List.of(vertex.sizeP50Bytes(), vertex.sizeMaxBytes(), vertex.ackP50Ms())).containsOnly(0L);
    }

    @Test
    void whatDescribeWritesParseReads() {
        List<CheckpointByVertex> vertices = List.of(new CheckpointByVertex("Join[30] | Calc", 2_167_413, 4_256_128,
                7, 7, 34, 60, 1), new CheckpointByVertex("Source: nexmark[25]", 594, 594, 6, 0, 2, 12, 0));
        assertThat(CheckpointByVertex.parse(CheckpointByVertex.describe(vertices))).containsExactly(
                new CheckpointByVertex("Join[30] / Calc", 2_167_413, 4_256_128, 7, 7, 34, 60, 1), vertices.get(1));
    }
}
