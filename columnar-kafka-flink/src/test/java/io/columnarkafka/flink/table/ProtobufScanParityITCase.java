package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.protobuf.testmsg.Color;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The protobuf scan decoder through SQL: the same bounded SELECT over the same topic through Flink's {@code
 * kafka} source with Flink's {@code protobuf} format and through {@code kafka-columnar} gives the same rows,
 * for a protobuf key and value (the format module's test messages) with {@code ignore-parse-errors} on the
 * value: negative and edge numbers, non-BMP strings, nested messages unset or merged from two occurrences,
 * unknown fields, undeclared enum numbers (a name; as a number the record is skipped), cut records and
 * tombstones (skipped by both). Asserts the columnar source admitted the scan and decoded the rows.
 */
class ProtobufScanParityITCase {
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            SinkJobs.miniCluster(2, REPORTER.addToConfiguration(new Configuration()));

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private final ScanParity scans = new ScanParity(REPORTER, KAFKA);

    @AfterEach
    void noArrowMemoryOutstanding() {
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
        assertThat(ArrowMemory.openAllocators()).as(ArrowMemory.describe()).isZero();
    }

    private static List<ProducerRecord<byte[], byte[]>> records(String topic, int count, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = Inner3.newBuilder().setX(i % 7 - 3).setS("k\u00e9" + i % 5).build().toByteArray();
            Scalars3 value = Scalars3.newBuilder().setD(i * -1.5).setI32(-i).setU64(-1L - i).setS64(Long.MIN_VALUE + i)
                    .setFx32(i).setB(i % 2 == 0).setS("v" + i + (i % 3 == 0 ? " \uD83D\uDE00" : ""))
                    .setEValue(i % 4 == 3 ? 9 : i % 3).setOeValue(i % 5)
                    .setBy(ByteString.copyFrom(new byte[] {(byte) i})).setFar(i * 1_000_003L).build();
            if (i % 4 == 1) {
                value = value.toBuilder().setM(Inner3.newBuilder().setX(i).addL(i).addL(-i)).build();
            }
            byte[] bytes = value.toByteArray();
            bytes = switch (i % 10) {
                case 2 -> concat(bytes, Scalars3.newBuilder().setM(Inner3.newBuilder().setS("merged").addL(7))
                        .setS("second").build().toByteArray());
                case 5 -> concat(new byte[] {(byte) 0xF8, 0x06, 0x2A, 0x7D, 1, 2, 3, 4}, bytes); // unknown fields
                case 7 -> Arrays.copyOf(bytes, bytes.length / 2);
                case 9 -> null;
                default -> bytes;
            };
            records.add(new ProducerRecord<>(topic, i % partitions, key, bytes));
        }
        return records;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }

    @Test
    void protobufKeyAndValueWithIgnoreParseErrorsMatchFlink() throws Exception {
        String ddl = "CREATE TABLE ${t}src (k_x INT, k_s STRING, d DOUBLE, i32 INT, u64 BIGINT, s64 BIGINT,"
                + " fx32 INT, b BOOLEAN, s STRING, `by` BYTES, e STRING, oe INT, m ROW<x INT, s STRING, l ARRAY<BIGINT>>,"
                + " far BIGINT) WITH ('connector' = '${connector}', 'topic' = '${t}in',"
                + " 'properties.bootstrap.servers' = '${servers}', 'properties.group.id' = '${t}g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'key.format' = 'protobuf', 'key.protobuf.message-class-name' = '" + Inner3.class.getName() + "',"
                + " 'key.fields' = 'k_x;k_s', 'key.fields-prefix' = 'k_', 'value.format' = 'protobuf',"
                + " 'value.protobuf.message-class-name' = '" + Scalars3.class.getName() + "',"
                + " 'value.protobuf.ignore-parse-errors' = 'true', 'value.fields-include' = 'EXCEPT_KEY')";
        ScanParity.Run run = scans.parity("protobuf", ddl, "SELECT k_s, m, s, e, oe, d, far, k_x, i32, u64, s64,"
                + " fx32, b, `by` FROM ${t}src", 2, t -> records(t, 400, 2), false, produced -> produced / 2);
        assertThat(run.decision().describe()).isEqualTo("admitted: protobuf value, protobuf key, bounded latest");
        assertThat(run.decodedRows()).as("rows decoded by the columnar source").isPositive();
        assertThat(run.rows()).as("rows with a merged nested message").anyMatch(row -> row.contains("merged"));
    }
}
