package io.columnarkafka.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.client.OversizedRecordException;
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

/**
 * The encode function fails a batch holding a record over the producer's limit before it emits any record of
 * it, naming the batch's Arrow row (through a selection too) and the split; a batch within the limit is emitted
 * whole.
 */
class RecordSizeCheckTest {
    @Test
    void aBatchWithARecordOverTheLimitEmitsNothingAndNamesTheArrowRowAndSplit() throws Exception {
        List<byte[]> flink = SinkJobs.expectedJson(20);
        int longest = 0;
        for (int i = 1; i < flink.size(); i++) {
            longest = flink.get(i).length > flink.get(longest).length ? i : longest;
        }
        int longestLength = flink.get(longest).length;
        int shorter = 0;
        while (flink.get(shorter).length >= longestLength) {
            shorter++;
        }
        // the longest row is one byte over the limit, the others are within it
        Properties properties = new Properties();
        int limit = RecordSizeLimit.upperBound(-1, longestLength - 1, null);
        properties.setProperty("max.request.size", String.valueOf(limit));
        EncodeFunction<PreSerializedRecord> encode = EncodeFunction.ofRecords(
                new EncodingSpec(TestRows.ROW_TYPE, "sized", "json", Map.of(), new int[0], List.of(), null, Map.of()),
                16L << 20, RecordSizeLimit.of(properties), 0);
        BufferAllocator producer = ArrowMemory.newChild("record-size-producer", 16L << 20);
        try (OneInputStreamOperatorTestHarness<ArrowBatch, PreSerializedRecord> harness =
                new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(encode))) {
            harness.open();
            int[] fits = {shorter};
            harness.processElement(new StreamRecord<>(ArrowBatch.of(TestRows.batch(0, 20, producer), null, fits, 1)));
            assertThat(harness.extractOutputValues()).hasSize(1);

            int[] selection = {shorter, longest};
            ArrowBatch oversized = ArrowBatch.of(TestRows.batch(0, 20, producer), null, selection, selection.length);
            assertThatThrownBy(() -> harness.processElement(new StreamRecord<>(oversized)))
                    .isInstanceOf(OversizedRecordException.class)
                    .hasMessageStartingWith("topic 'sized', row " + longest + " of the Arrow batch: the Kafka"
                            + " record is " + RecordSizeLimit.upperBound(-1, longestLength, null) + " bytes")
                    .hasMessageContaining("value " + longestLength + " bytes")
                    .hasMessageContaining("limit of " + limit + " bytes (max.request.size)");
            assertThat(harness.extractOutputValues()).as("nothing of the failed batch was emitted").hasSize(1);

            ArrowBatch fromSplit = ArrowBatch.fromSplit(TestRows.batch(0, 20, producer), "input-3");
            assertThatThrownBy(() -> harness.processElement(new StreamRecord<>(fromSplit)))
                    .hasMessageStartingWith("topic 'sized', row " + longest + " of the Arrow batch read from split"
                            + " 'input-3': ");
            assertThat(harness.extractOutputValues()).hasSize(1);
        } finally {
            producer.close();
        }
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }
}
