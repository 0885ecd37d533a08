package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.avro.parity.FlinkAvroConfluentOracle;
import io.columnarkafka.format.avro.parity.TestSchemaRegistry;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.formats.avro.AvroRowDataSerializationSchema;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code avro-confluent} scan decoder through SQL on the real broker and the test registry. Flink's own {@code
 * avro-confluent} runtime cannot run here (its factory's Confluent registry client is not on Maven Central), so the
 * oracle is Flink's deserializer as that factory builds it ({@link FlinkAvroConfluentOracle}) applied to the topic's
 * records: the {@code kafka-columnar} SELECT gives exactly the rows it makes of them, for records of the table's own
 * schema and of another writer schema (fields reordered, missing, added, promoted), tombstones giving none. Asserts
 * the columnar scan was admitted and decoded the rows, and no Arrow memory is left.
 */
class AvroConfluentScanITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final String COLUMNS = "id BIGINT, name STRING, price DECIMAL(10, 2), d DOUBLE, tags ARRAY<INT>,"
            + " r ROW<x INT, y STRING>, m MAP<STRING, BIGINT>, ts TIMESTAMP(3)";
    /** The physical row Flink's source gives its value format. */
    private static final RowType TABLE = (RowType) RowTypes.parse("ROW<" + COLUMNS + ">").copy(false);
    /** Another writer: fields reordered, {@code price} and {@code m} missing, {@code extra} added, ints to widen. */
    private static final RowType OTHER_WRITER = (RowType) RowTypes.parse("ROW<r ROW<y STRING, x INT>, name STRING,"
            + " extra BYTES, id INT NOT NULL, d FLOAT, tags ARRAY<INT>, ts TIMESTAMP(3)>").copy(false);

    private static TestSchemaRegistry registry;
    private final ScanParity scans = new ScanParity(REPORTER, KAFKA);

    @BeforeAll
    static void startRegistry() throws Exception {
        registry = new TestSchemaRegistry(null);
    }

    @AfterAll
    static void stopRegistry() {
        registry.close();
    }

    @AfterEach
    void noArrowMemoryOutstanding() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    @Test
    void theColumnarScanGivesTheRowsFlinksDeserializerMakesOfTheTopic() throws Exception {
        List<byte[]> values = new ArrayList<>();
        RandomValues random = new RandomValues(41, false);
        for (RowType writer : List.of(TABLE, OTHER_WRITER)) {
            AvroRowDataSerializationSchema serializer = FlinkAvroConfluentOracle.serializer(registry, "in-value", writer);
            random.rows(writer, 60).forEach(row -> values.add(serializer.serialize(row)));
        }
        values.add(null); // a tombstone: no row
        List<String> expected = flinkRows(values);
        String ddl = "CREATE TABLE ${t}src (" + COLUMNS + ") WITH ('connector' = '${connector}', 'topic' = '${t}in',"
                + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'value.format' = 'avro-confluent', 'value.avro-confluent.url' = '" + registry.url() + "')";
        ScanParity.Run run = scans.columnarOnly("avroconfluent", ddl, "SELECT * FROM ${t}src", 2, topic -> {
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                records.add(new ProducerRecord<>(topic, i % 2, null, values.get(i)));
            }
            return records;
        });
        assertThat(run.decision().describe()).isEqualTo("admitted: avro-confluent value, bounded latest");
        assertThat(run.rows()).hasSize(120).isEqualTo(expected);
        assertThat(run.decodedRows()).isEqualTo(120);
    }

    /** Flink's deserializer's rows of {@code values}, as the SQL client's rows print them, sorted. */
    private static List<String> flinkRows(List<byte[]> values) throws Exception {
        DeserializationSchema<RowData> flink = FlinkAvroConfluentOracle.deserializer(registry, TABLE);
        @SuppressWarnings("unchecked")
        DataStructureConverter<Object, Object> converter = (DataStructureConverter<Object, Object>)
                DataStructureConverters.getConverter(TypeConversions.fromLogicalToDataType(TABLE));
        converter.open(AvroConfluentScanITCase.class.getClassLoader());
        List<String> rows = new ArrayList<>();
        for (byte[] value : values) {
            RowData row = flink.deserialize(value);
            if (row != null) {
                rows.add(converter.toExternal(row).toString());
            }
        }
        Collections.sort(rows);
        return rows;
    }
}
