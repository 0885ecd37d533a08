package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.record.PreSerializedRecord;
import io.columnarkafka.flink.testing.SinkJobs;
import io.columnarkafka.flink.testing.TestRows;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The encode operator encodes only a batch's selected rows: rows a columnar filter dropped never become records. */
class SelectedRowsEncodeTest {
    @Test
    void onlySelectedRowsAreEncoded() throws Exception {
        EncodingSpec spec = new EncodingSpec(TestRows.ROW_TYPE, "topic", "json", Map.of(), new int[0], List.of(), null,
                Map.of());
        List<byte[]> flink = SinkJobs.expectedJson(20);
        BufferAllocator producer = ArrowMemory.newChild("selected-rows-producer", 16L << 20);
        try (OneInputStreamOperatorTestHarness<ArrowBatch, PreSerializedRecord> harness =
                new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(
                        EncodeFunction.ofRecords(spec, 16L << 20, RecordSizeLimit.of(new Properties()), 0)))) {
            harness.open();
            int[] selection = {1, 4, 5, 19};
            harness.processElement(new StreamRecord<>(
                    ArrowBatch.of(TestRows.batch(0, 20, producer), null, selection, selection.length)));
            List<PreSerializedRecord> records = harness.extractOutputValues();
            assertThat(records).hasSize(selection.length);
            for (int k = 0; k < selection.length; k++) {
                assertThat(records.get(k).value()).isEqualTo(flink.get(selection[k]));
            }
        } finally {
            producer.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }
}
