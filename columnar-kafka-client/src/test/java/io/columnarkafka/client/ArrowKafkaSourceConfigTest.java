package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

/** {@link ArrowKafkaSource} without a broker: validation, what it declares before opening, and its states. */
class ArrowKafkaSourceConfigTest {

    private static ArrowKafkaSourceConfig.Builder valid() {
        return ArrowKafkaSourceConfig.builder()
                .bootstrapServers("localhost:1")
                .topics("bids")
                .groupId("readers")
                .rowType("ROW<id BIGINT, name STRING, ts TIMESTAMP(3)>")
                .keyFields("id").keyFormat("json", Map.of())
                .valueFormat("json", Map.of("timestamp-format.standard", "ISO-8601"));
    }

    private static List<String> keys(List<ConfigProblem> problems) {
        return problems.stream().map(ConfigProblem::key).toList();
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("topic", "bids");
        config.put("scan.partitions", "bids:0");
        config.put("row-type", "ROW<id BIGINT>");
        config.put("value.format", "json");
        config.put("key.format", "json");
        config.put("properties.isolation.level", "read_maybe");
        config.put("properties.enable.auto.commit", "true");
        config.put("properties.no.such.property", "1");
        config.put("scan.startup.mode", "whenever");
        config.put("scan.batch.max-rows", "0");
        config.put("scan.batch.max-bytes", "lots");
        config.put("scan.startup.timestamp-millis", "5");
        config.put("unknown", "x");
        List<ConfigProblem> problems = new ArrowKafkaSource(ArrowKafkaSourceConfig.fromMap(config)).validate();
        assertThat(keys(problems)).containsExactlyInAnyOrder(
                "unknown", "properties.isolation.level", "properties.enable.auto.commit", "properties.no.such.property",
                "properties.bootstrap.servers", "topic", "scan.startup.mode", "scan.startup.timestamp-millis",
                "properties.group.id", "scan.batch.max-rows", "scan.batch.max-bytes", "key.fields");
        assertThat(problems.toString()).contains("read_maybe", "whenever", "not two");
    }

    @Test
    void optionsAFormatRejectsAndFieldsItCannotDecodeAreProblems() {
        assertThat(keys(new ArrowKafkaSource(valid().valueFormat("json", Map.of("no-such-option", "1")).build()).validate()))
                .containsExactly("value.format");
        List<ConfigProblem> raw = new ArrowKafkaSource(valid().valueFormat("raw", Map.of()).build()).validate();
        assertThat(keys(raw)).as("raw takes one field; the json option left behind is a key of no format")
                .containsExactly("value.json.timestamp-format.standard", "value.format");
        assertThat(raw.get(1).message()).contains("cannot decode the value fields");
        assertThat(keys(new ArrowKafkaSource(valid().keyFields("nope").build()).validate())).containsExactly("key.fields");
        assertThat(keys(new ArrowKafkaSource(valid().rowType("ROW<id BIGINT").build()).validate()))
                .containsExactly("row-type");
    }

    @Test
    void partitionsNeedNoGroupButTopicsAndCommittedOffsetsDo() {
        ArrowKafkaSourceConfig assigned = ArrowKafkaSourceConfig.builder()
                .bootstrapServers("localhost:1")
                .partitions(List.of(new org.apache.kafka.common.TopicPartition("bids", 0)))
                .rowType("ROW<id BIGINT>").valueFormat("json", Map.of())
                .startFromEarliest()
                .build();
        assertThat(new ArrowKafkaSource(assigned).validate()).isEmpty();
        Map<String, String> withTopic = new LinkedHashMap<>(assigned.toMap());
        withTopic.remove("scan.partitions");
        withTopic.put("topic", "bids");
        assertThat(keys(new ArrowKafkaSource(ArrowKafkaSourceConfig.fromMap(withTopic)).validate()))
                .containsExactly("properties.group.id");
        Map<String, String> committed = new LinkedHashMap<>(assigned.toMap());
        committed.put("scan.startup.mode", "group-offsets");
        assertThat(keys(new ArrowKafkaSource(ArrowKafkaSourceConfig.fromMap(committed)).validate()))
                .containsExactly("properties.group.id");
    }

    @Test
    void declaresItsDecodersAndSchemaWithoutOpening() {
        ArrowKafkaSource source = new ArrowKafkaSource(valid().build());
        assertThat(source.validate()).isEmpty();
        assertThat(source.state()).isEqualTo(SourceState.CREATED);
        assertThat(source.decoding()).isEqualTo("json value (JsonBatchDecoder), json key (JsonBatchDecoder)");
        assertThat(source.rowType().getFieldNames()).containsExactly("id", "name", "ts");
        assertThat(source.schema().getFields()).extracting(Field::getName).containsExactly("id", "name", "ts");
        assertThatThrownBy(() -> source.poll(java.time.Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("call open() first");
        source.close();
        assertThat(source.state()).isEqualTo(SourceState.CLOSED);
        assertThatThrownBy(source::open).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void metadataColumnsBoundedModeAndTopicPatternProblemsAreReportedAtOnce() {
        ArrowKafkaSourceConfig config = valid()
                .metadataColumns("offset", "nope", "topic AS id", "headers AS")
                .set("scan.bounded.mode", "soon")
                .set("scan.bounded.timestamp-millis", "5")
                .topicPattern("bids[")
                .build();
        List<ConfigProblem> problems = new ArrowKafkaSource(config).validate();
        assertThat(keys(problems)).containsExactlyInAnyOrder("topic", "metadata-columns", "metadata-columns",
                "metadata-columns", "scan.bounded.mode", "scan.bounded.timestamp-millis");
        assertThat(problems.toString()).contains("'nope'", "column 'id' is already a field", "'headers AS'", "soon",
                "not two");

        Map<String, String> pattern = new LinkedHashMap<>(valid().topicPattern("bids[").build().toMap());
        pattern.remove("topic");
        pattern.put("scan.bounded.mode", "specific-offsets");
        pattern.remove("properties.group.id");
        List<ConfigProblem> patternProblems = new ArrowKafkaSource(ArrowKafkaSourceConfig.fromMap(pattern)).validate();
        assertThat(keys(patternProblems)).containsExactlyInAnyOrder("topic-pattern", "properties.group.id",
                "scan.bounded.specific-offsets", "properties.group.id", "properties.group.id");
        assertThat(patternProblems.get(0).message()).contains("Unclosed character class");
    }

    @Test
    void metadataColumnsFollowTheRowTypeWithFlinksTypes() {
        ArrowKafkaSource source = new ArrowKafkaSource(valid()
                .metadataColumns("topic", "partition", "offset AS kafka_offset", "timestamp", "timestamp-type", "headers",
                        "leader-epoch")
                .build());
        assertThat(source.validate()).isEmpty();
        // the types of flink-connector-kafka 5.0's KafkaDynamicSource.ReadableMetadata, in the order asked for
        assertThat(source.rowType()).isEqualTo(io.columnarkafka.format.RowTypes.parse("ROW<id BIGINT, name STRING,"
                + " ts TIMESTAMP(3), `topic` STRING NOT NULL, `partition` INT NOT NULL, kafka_offset BIGINT NOT NULL,"
                + " `timestamp` TIMESTAMP_LTZ(3) NOT NULL, `timestamp-type` STRING NOT NULL,"
                + " headers MAP<STRING, BYTES> NOT NULL, `leader-epoch` INT>"));
        assertThat(source.schema().getFields()).extracting(Field::getName).containsExactly("id", "name", "ts", "topic",
                "partition", "kafka_offset", "timestamp", "timestamp-type", "headers", "leader-epoch");
    }

    @Test
    void openRefusesAConfigurationWithProblemsListingThem() {
        ArrowKafkaSource source = new ArrowKafkaSource(valid().set("scan.batch.max-rows", "-1").build());
        assertThatThrownBy(source::open).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scan.batch.max-rows");
        assertThat(source.state()).isEqualTo(SourceState.CREATED);
    }
}
