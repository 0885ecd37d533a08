package io.columnarkafka.flink.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.RecordSlab;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

class EncodedBatchTest {
    private final EncodedBatchSerializer serializer = EncodedBatchSerializer.INSTANCE;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** An encoder's slab: the given records (null: a null record) written one after another. */
    private static RecordSlab slab(String... records) {
        return fill(new RecordSlab(), records);
    }

    /** Writes the records into the slab as an encoder does for its next batch. */
    private static RecordSlab fill(RecordSlab slab, String... records) {
        slab.reset(records.length, 64);
        for (String record : records) {
            if (record == null) {
                slab.nullRecord();
                continue;
            }
            byte[] b = bytes(record);
            slab.startRecord();
            byte[] buffer = slab.ensure(b.length);
            System.arraycopy(b, 0, buffer, slab.position(), b.length);
            slab.position(slab.position() + b.length);
            slab.endRecord();
        }
        return slab;
    }

    private static List<PreSerializedRecord> records(EncodedBatch batch) {
        List<PreSerializedRecord> records = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            records.add(batch.record(i));
        }
        return records;
    }

    private EncodedBatch roundTrip(EncodedBatch batch) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(batch, out);
        EncodedBatch back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        DataOutputSerializer copied = new DataOutputSerializer(64);
        serializer.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
        return back;
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyRecordSurvivesTheChannelWithTombstonesTimestampsHeadersAndTopics() throws Exception {
        // Five rows; rows 1 and 3 are tombstones, so the value slab holds three records (one of them empty).
        boolean[] tombstone = {false, true, false, true, false};
        RecordSlab values = slab("{\"a\":1}", "", "{\"s\":\"\u00e9\uD83D\uDE00\"}");
        RecordSlab keys = slab("k0", "k1", null, "k3", "k4");
        List<Header>[] headers = new List[] {
            List.of(new RecordHeader("h", bytes("x")), new RecordHeader("n", null)), null, List.of(), null,
            List.of(new RecordHeader("h", new byte[0]))};
        long[] timestamps = {0L, EncodedBatch.NO_TIMESTAMP, -62135596800000L, 253402300799999L, 1L};
        String[] topics = {"a", "b", "a", "a", "c"};
        EncodedBatch batch = new EncodedBatch(topics, timestamps, headers, EncodedBatch.Slab.copyOf(keys),
                EncodedBatch.Slab.copyOf(values, 5, tombstone));
        // The encoder reuses its slab for the next batch: the element must not see that.
        fill(values, "overwritten-0", "overwritten-1", "overwritten-2");
        fill(keys, "x", "x", "x", "x", "x");

        List<PreSerializedRecord> expected = List.of(
                new PreSerializedRecord("a", null, 0L, bytes("k0"), bytes("{\"a\":1}"), headers[0]),
                new PreSerializedRecord("b", null, null, bytes("k1"), null, List.of()),
                new PreSerializedRecord("a", null, -62135596800000L, null, new byte[0], List.of()),
                new PreSerializedRecord("a", null, 253402300799999L, bytes("k3"), null, List.of()),
                new PreSerializedRecord("c", null, 1L, bytes("k4"), bytes("{\"s\":\"\u00e9\uD83D\uDE00\"}"),
                        headers[4]));
        assertThat(records(batch)).containsExactlyElementsOf(expected);
        List<PreSerializedRecord> back = records(roundTrip(batch));
        assertThat(back).containsExactlyElementsOf(expected);
        assertThat(back).extracting(PreSerializedRecord::timestamp)
                .containsExactly(0L, null, -62135596800000L, 253402300799999L, 1L);
    }

    @Test
    void oneTopicNoKeysNoMetadataAndAnEmptyBatch() throws Exception {
        EncodedBatch batch = new EncodedBatch(new String[] {"t", "t"}, null, null, null,
                EncodedBatch.Slab.copyOf(slab("v0", "v1")));
        assertThat(records(roundTrip(batch))).containsExactly(
                PreSerializedRecord.of("t", null, bytes("v0")), PreSerializedRecord.of("t", null, bytes("v1")));

        EncodedBatch empty = new EncodedBatch(new String[0], null, null, null, EncodedBatch.Slab.copyOf(slab()));
        assertThat(roundTrip(empty).size()).isZero();
    }

    @Test
    void eachRecordGetsItsOwnArrays() {
        EncodedBatch batch = new EncodedBatch(new String[] {"t"}, null, null, EncodedBatch.Slab.copyOf(slab("k")),
                EncodedBatch.Slab.copyOf(slab("v")));
        PreSerializedRecord first = batch.record(0);
        PreSerializedRecord second = batch.record(0);
        assertThat(first.value()).isEqualTo(second.value()).isNotSameAs(second.value());
        assertThat(first.key()).isEqualTo(second.key()).isNotSameAs(second.key());
    }

    @Test
    void mismatchedCountsAreRejected() {
        RecordSlab values = slab("v0", "v1");
        assertThatThrownBy(() -> EncodedBatch.Slab.copyOf(values, 3, new boolean[] {false, true, true}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the slab holds 2 records, the rows select 1");
        assertThatThrownBy(() -> new EncodedBatch(new String[] {"t"}, null, null, null,
                EncodedBatch.Slab.copyOf(values)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("values for 2 records, topics for 1");
    }

    @Test
    void copyIsTheSameInstanceAndTheSnapshotRestores() throws Exception {
        EncodedBatch batch = new EncodedBatch(new String[] {"t"}, null, null, null,
                EncodedBatch.Slab.copyOf(slab("v")));
        assertThat(serializer.copy(batch)).isSameAs(batch);
        assertThat(TypeInformation.of(EncodedBatch.class)).isEqualTo(EncodedBatchTypeInfo.INSTANCE);

        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
        TypeSerializerSnapshot<EncodedBatch> restored = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(serializer.snapshotConfiguration().resolveSchemaCompatibility(restored).isCompatibleAsIs())
                .isTrue();
    }
}
