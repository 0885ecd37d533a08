package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageGraph;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.junit.jupiter.api.Test;

/**
 * A DataStream job's lineage (what a job status listener reads off the job's lineage graph): {@link
 * ColumnarKafkaSource}'s is a stock {@code KafkaSource}'s with the same settings (the cluster's namespace, the topics
 * or the pattern, the consumer's properties; its type facet names what it produces), and a {@code
 * ColumnarKafkaSink}'s is its {@code KafkaSink}'s.
 */
class DataStreamLineageTest {
    @Test
    void topicsAndPropertiesAreAStockKafkaSourcesAndTheTypeIsTheBatches() {
        ColumnarKafkaSource<ArrowBatch> columnar = columnar().setTopics("bids", "asks").build();
        KafkaSource<String> stock = stock().setTopics("bids", "asks").build();

        LineageDataset ours = onlyDataset(columnar.getLineageVertex());
        LineageDataset flinks = onlyDataset(stock.getLineageVertex());
        assertThat(ours.namespace()).isEqualTo(flinks.namespace()).isEqualTo("kafka://broker-1:9092");
        assertThat(ours.name()).isEqualTo(flinks.name());
        KafkaDatasetFacet kafka = (KafkaDatasetFacet) ours.facets().get("kafka");
        assertThat(kafka.getTopicIdentifier().getTopics()).containsExactly("bids", "asks");
        assertThat(kafka).isEqualTo(flinks.facets().get("kafka"));
        assertThat(((TypeDatasetFacet) ours.facets().get("type")).getTypeInformation())
                .isEqualTo(columnar.getProducedType());
        assertThat(ours.facets().keySet()).isEqualTo(flinks.facets().keySet());
    }

    @Test
    void aPatternIsAStockKafkaSourcesToo() {
        Pattern pattern = Pattern.compile("bids-.*");
        LineageDataset ours = onlyDataset(columnar().setTopicPattern(pattern).build().getLineageVertex());
        LineageDataset flinks = onlyDataset(stock().setTopicPattern(pattern).build().getLineageVertex());
        assertThat(ours.name()).isEqualTo(flinks.name()).isEqualTo("bids-.*");
        assertThat(ours.facets().get("kafka")).isEqualTo(flinks.facets().get("kafka"));
    }

    @Test
    void aKafkaToKafkaJobsLineageGraphHasBothTopicsAndTheirRelation() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<ArrowBatch> bids = env.fromSource(columnar().setTopics("bids").build(),
                WatermarkStrategy.noWatermarks(), "bids");
        ColumnarKafkaSink.builder().setRowType("ROW<k STRING, n BIGINT>").setValueFormat("json", Map.of())
                .setTopic("copies").setBootstrapServers("broker-2:9092").build().sinkTo(bids);
        LineageGraph graph = env.getStreamGraph().getLineageGraph();
        assertThat(graph.sources()).hasSize(1);
        LineageDataset source = onlyDataset(graph.sources().get(0));
        assertThat(source.namespace() + "/" + source.name()).isEqualTo("kafka://broker-1:9092/bids");
        assertThat(graph.sinks()).hasSize(1);
        List<LineageDataset> sinkDatasets = graph.sinks().get(0).datasets();
        assertThat(sinkDatasets).hasSize(1);
        assertThat(sinkDatasets.get(0).namespace() + "/" + sinkDatasets.get(0).name())
                .isEqualTo("kafka://broker-2:9092/copies");
        assertThat(graph.relations()).hasSize(1);
    }

    private static ColumnarKafkaSource.Builder columnar() {
        return ColumnarKafkaSource.builder().setBootstrapServers("broker-1:9092").setGroupId("g")
                .setRowType("ROW<k STRING, n BIGINT>").setValueFormat("json", Map.of());
    }

    private static KafkaSourceBuilder<String> stock() {
        return KafkaSource.<String>builder().setBootstrapServers("broker-1:9092").setGroupId("g")
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    private static LineageDataset onlyDataset(SourceLineageVertex vertex) {
        List<LineageDataset> datasets = vertex.datasets();
        assertThat(datasets).hasSize(1);
        return datasets.get(0);
    }
}
