package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.testing.KafkaBrokerExtension;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.protobuf.parity.FlinkProtobufOracle;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code protobuf} through the DataStream sink and a real broker: key and value are the compiled proto3
 * test message {@code Inner3} of the format module (its test jar), and every record equals what Flink's
 * own {@code PbRowDataSerializationSchema} writes for the same row (nulls left unset, null array elements
 * written as the default). The SQL path is proven against stock {@code kafka} in {@code FormatParityITCase}.
 */
class ProtobufSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJobs.miniCluster(2);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    private static final RowType ROW = RowTypes.parse("ROW<x INT, s STRING, l ARRAY<BIGINT>>");
    private static final Map<String, String> INNER3 = Map.of("message-class-name", Inner3.class.getName());

    @Test
    void keyAndValueAreFlinksProtobufBytes() throws Exception {
        String topic = "protobuf";
        KAFKA.broker().createTopic(topic, 2);
        int batches = 8;
        int rows = 30;
        StreamExecutionEnvironment env = SinkJobs.environment(0);
        DataStream<ArrowBatch> input = SinkJobs.batchIndexes(env, batches, 0, 1, "src")
                .flatMap(new Batch(rows))
                .returns(ArrowBatchTypeInfo.INSTANCE)
                .setParallelism(1);
        ColumnarKafkaSink.builder()
                .setRowType(ROW)
                .setValueFormat("protobuf", INNER3)
                .setKeyFields("x")
                .setKeyFormat("protobuf", INNER3)
                .setTopic(topic)
                .setBootstrapServers(KAFKA.broker().bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .setParallelism(1)
                .build()
                .sinkTo(input);
        env.execute("protobuf");

        ParityCheck.Oracle value = FlinkProtobufOracle.open(ROW, INNER3);
        ParityCheck.Oracle key = FlinkProtobufOracle.open(RowTypes.parse("ROW<x INT>"), INNER3);
        List<String> expected = new ArrayList<>();
        for (long id = 0; id < (long) batches * rows; id++) {
            RowData row = row(id);
            expected.add(render(key.serialize(GenericRowData.of(row.isNullAt(0) ? null : row.getInt(0))),
                    value.serialize(row)));
        }
        List<String> actual = new ArrayList<>();
        for (TopicRecord record : TopicVerifier.forTopic(KAFKA.broker(), topic).keepRecords(true).read().records()) {
            actual.add(render(record.key(), record.value()));
        }
        Collections.sort(expected);
        Collections.sort(actual);
        assertThat(actual).isEqualTo(expected);
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    /** Row {@code id}: nulls in every column and in the array, varied by id. */
    static GenericRowData row(long id) {
        Integer x = id % 7 == 3 ? null : (int) id - 100;
        StringData s = id % 5 == 1 ? null : StringData.fromString("s" + id + (id % 3 == 0 ? " üñí" : ""));
        GenericArrayData l = id % 4 == 2 ? null : new GenericArrayData(new Object[] {id, null, -id * 1_000_000_007L});
        return GenericRowData.of(x, s, l);
    }

    private static String render(byte[] key, byte[] value) {
        Base64.Encoder b64 = Base64.getEncoder();
        return (key == null ? "null" : b64.encodeToString(key)) + " " + (value == null ? "null" : b64.encodeToString(value));
    }

    /** Batch index to an Arrow batch of rows {@code b * rows ..}, transposed from Flink rows. */
    private static final class Batch implements FlatMapFunction<Long, ArrowBatch> {
        private static final long serialVersionUID = 1L;
        private final int rows;

        Batch(int rows) {
            this.rows = rows;
        }

        @Override
        public void flatMap(Long index, Collector<ArrowBatch> out) {
            BufferAllocator allocator = ArrowMemory.newChild("protobuf-batch-" + index, 16L << 20);
            RowDataArrowWriter writer = null;
            try {
                writer = new RowDataArrowWriter(ROW, allocator);
                for (long id = index * rows; id < (index + 1) * rows; id++) {
                    writer.write(row(id));
                }
                RowDataArrowWriter owned = writer;
                ArrowBatch.of(writer.finish(), () -> {
                    owned.close();
                    allocator.close();
                }).emitTo(out);
            } catch (RuntimeException e) {
                if (writer != null) {
                    writer.close();
                }
                allocator.close();
                throw e;
            }
        }
    }
}
