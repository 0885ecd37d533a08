package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointByVertexTest {
    @Test
    void eachFigureIsTheSlowestSubtasksNearestRankMedianOverTheCheckpointsAndTheSizeAlsoItsLargest() {
        // Four checkpoints of two subtasks: per checkpoint the slower subtask's figure; over them the nearest-rank
        // p50 (the 2nd smallest of 4), whatever order they came in.
        CheckpointByVertex.Samples samples = new CheckpointByVertex.Samples(4);
        long[] size = {400, 100, 300, 200};
        long[][] slower = {{7, 1, 40, 90, 0}, {5, 0, 10, 60, 12}, {9, 3, 30, 80, 4}, {6, 2, 20, 70, 8}};
        for (int i = 0; i < 4; i++) {
            samples.size[i] = size[i];
            long[] f = slower[i];
            samples.subtask(i, f[0], f[1], f[2], f[3], f[4]);
            samples.subtask(i, f[0] - 1, 0, f[2] / 2, f[3] - 5, 0); // the faster subtask: counts for nothing
        }
        assertThat(samples.of("GroupAggregate[9]"))
                .isEqualTo(new CheckpointByVertex("GroupAggregate[9]", 200, 400, 6, 1, 20, 70, 4));
    }

    @Test
    void aCellWithoutCheckpointsHasZeroFiguresAndALongNameIsShortened() {
        String chain = "Source: ColumnarScanExecNode[15] -> ColumnarCalcExecNode[16] -> LocalWindowAggregate[17]";
        CheckpointByVertex vertex = new CheckpointByVertex.Samples(0).of(chain);
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
