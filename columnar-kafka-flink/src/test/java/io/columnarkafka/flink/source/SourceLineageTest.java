package io.columnarkafka.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageGraph;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.junit.jupiter.api.Test;

/**
 * {@link ColumnarKafkaSource}'s lineage (what a job status listener reads off the job's lineage graph) is a stock
 * {@code KafkaSource}'s with the same settings: the cluster's namespace, the topics or the pattern, the consumer's
 * properties; its type facet names what it produces.
 */
class SourceLineageTest {
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
    void theJobsLineageGraphHasTheSource() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSource(columnar().setTopics("bids").build(), WatermarkStrategy.noWatermarks(), "bids")
                .sinkTo(new DiscardingSink<>());
        LineageGraph graph = env.getStreamGraph().getLineageGraph();
        assertThat(graph.sources()).hasSize(1);
        assertThat(onlyDataset(graph.sources().get(0)).name()).isEqualTo("bids");
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
