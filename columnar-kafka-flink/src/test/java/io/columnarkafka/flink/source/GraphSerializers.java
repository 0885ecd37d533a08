package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatchSerializer;
import io.columnarkafka.flink.record.PreSerializedRecordSerializer;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;

/** The serializers of a job's stream nodes, to tell what its elements are: Arrow batches and records, or RowData. */
final class GraphSerializers {
    private GraphSerializers() {}

    /** Each node's input and output serializers, as {@code "<operator> in: <class>"} and {@code "<operator> out: ..."}. */
    static List<String> of(StreamGraph graph) {
        List<String> serializers = new ArrayList<>();
        for (StreamNode node : graph.getStreamNodes()) {
            for (TypeSerializer<?> in : node.getTypeSerializersIn()) {
                serializers.add(node.getOperatorName() + " in: " + in.getClass().getName());
            }
            if (node.getTypeSerializerOut() != null) {
                serializers.add(node.getOperatorName() + " out: " + node.getTypeSerializerOut().getClass().getName());
            }
        }
        return serializers;
    }

    /** The columnar path: no RowData anywhere, Arrow batches out of the source {@code source}, records into the sink. */
    static void assertNoRowData(StreamGraph graph, String source) {
        List<String> serializers = of(graph);
        assertThat(serializers).noneMatch(s -> s.contains("RowData"));
        assertThat(serializers).contains("Source: " + source + " out: " + ArrowBatchSerializer.class.getName());
        assertThat(serializers).anyMatch(s -> s.endsWith("in: " + PreSerializedRecordSerializer.class.getName()));
    }
}
