package io.columnarkafka.flink.record;

import io.columnarkafka.flink.typeutils.ImmutableRecordSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Serializer of {@link EncodedBatch}. Wire form: the record count, a flags byte (one topic for all
 * records, timestamps, headers, keys), the topic once or per record (modified UTF-8), the timestamps,
 * per record the header count and each header, then the key slab if present and the value slab, each as
 * its byte length, its bytes in one piece, and per record start and length.
 *
 * <p>The batch is immutable, so {@link #copy} returns the same instance.
 */
public final class EncodedBatchSerializer extends ImmutableRecordSerializer<EncodedBatch> {
    private static final long serialVersionUID = 1L;

    public static final EncodedBatchSerializer INSTANCE = new EncodedBatchSerializer();

    private static final int ONE_TOPIC = 1;
    private static final int HAS_TIMESTAMPS = 2;
    private static final int HAS_HEADERS = 4;
    private static final int HAS_KEYS = 8;

    @Override
    public void serialize(EncodedBatch batch, DataOutputView target) throws IOException {
        String[] topics = batch.topics();
        int count = topics.length;
        boolean oneTopic = count > 0 && Arrays.stream(topics).allMatch(topics[0]::equals);
        int flags = (oneTopic ? ONE_TOPIC : 0) | (batch.timestamps() != null ? HAS_TIMESTAMPS : 0)
                | (batch.headers() != null ? HAS_HEADERS : 0) | (batch.keys() != null ? HAS_KEYS : 0);
        target.writeInt(count);
        target.writeByte(flags);
        if (oneTopic) {
            target.writeUTF(topics[0]);
        } else {
            for (String topic : topics) {
                target.writeUTF(topic);
            }
        }
        if (batch.timestamps() != null) {
            for (long timestamp : batch.timestamps()) {
                target.writeLong(timestamp);
            }
        }
        if (batch.headers() != null) {
            for (List<Header> headers : batch.headers()) {
                writeHeaders(headers, target);
            }
        }
        if (batch.keys() != null) {
            writeSlab(batch.keys(), target);
        }
        writeSlab(batch.values(), target);
    }

    @Override
    @SuppressWarnings("unchecked")
    public EncodedBatch deserialize(DataInputView source) throws IOException {
        int count = source.readInt();
        int flags = source.readByte();
        String[] topics = new String[count];
        if ((flags & ONE_TOPIC) != 0) {
            Arrays.fill(topics, source.readUTF());
        } else {
            for (int i = 0; i < count; i++) {
                topics[i] = source.readUTF();
            }
        }
        long[] timestamps = null;
        if ((flags & HAS_TIMESTAMPS) != 0) {
            timestamps = new long[count];
            for (int i = 0; i < count; i++) {
                timestamps[i] = source.readLong();
            }
        }
        List<Header>[] headers = null;
        if ((flags & HAS_HEADERS) != 0) {
            headers = new List[count];
            for (int i = 0; i < count; i++) {
                headers[i] = readHeaders(source);
            }
        }
        EncodedBatch.Slab keys = (flags & HAS_KEYS) != 0 ? readSlab(count, source) : null;
        return new EncodedBatch(topics, timestamps, headers, keys, readSlab(count, source));
    }

    @Override
    public TypeSerializerSnapshot<EncodedBatch> snapshotConfiguration() {
        return new EncodedBatchSerializerSnapshot();
    }

    private static void writeHeaders(List<Header> headers, DataOutputView target) throws IOException {
        if (headers == null) {
            target.writeInt(0);
            return;
        }
        target.writeInt(headers.size());
        for (Header header : headers) {
            target.writeUTF(header.key());
            byte[] value = header.value();
            target.writeInt(value == null ? -1 : value.length);
            if (value != null) {
                target.write(value);
            }
        }
    }

    private static List<Header> readHeaders(DataInputView source) throws IOException {
        int size = source.readInt();
        if (size == 0) {
            return List.of();
        }
        List<Header> headers = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            String key = source.readUTF();
            int length = source.readInt();
            byte[] value = null;
            if (length >= 0) {
                value = new byte[length];
                source.readFully(value);
            }
            headers.add(new RecordHeader(key, value));
        }
        return headers;
    }

    private static void writeSlab(EncodedBatch.Slab slab, DataOutputView target) throws IOException {
        target.writeInt(slab.bytes().length);
        target.write(slab.bytes());
        int[] starts = slab.starts();
        int[] lengths = slab.lengths();
        for (int i = 0; i < starts.length; i++) {
            target.writeInt(starts[i]);
            target.writeInt(lengths[i]);
        }
    }

    private static EncodedBatch.Slab readSlab(int count, DataInputView source) throws IOException {
        byte[] bytes = new byte[source.readInt()];
        source.readFully(bytes);
        int[] starts = new int[count];
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
            starts[i] = source.readInt();
            lengths[i] = source.readInt();
        }
        return new EncodedBatch.Slab(bytes, starts, lengths);
    }

    /**
     * The serializer has no parameters, so any version restores as is. Savepoints record this class's
     * name: keep it.
     */
    public static final class EncodedBatchSerializerSnapshot extends SimpleTypeSerializerSnapshot<EncodedBatch> {
        public EncodedBatchSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
