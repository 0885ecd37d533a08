package io.columnarkafka.flink.record;

import io.columnarkafka.flink.typeutils.ImmutableRecordSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Serializer of {@link PreSerializedRecord}. Wire form: a flags byte (partition present, timestamp
 * present), the topic (modified UTF-8), the partition int and timestamp long if present, key and value
 * as a length (-1 for null) plus bytes, then the header count and each header's key and value.
 *
 * <p>The record is immutable, so {@link #copy} returns the same instance.
 */
public final class PreSerializedRecordSerializer extends ImmutableRecordSerializer<PreSerializedRecord> {
    private static final long serialVersionUID = 1L;

    public static final PreSerializedRecordSerializer INSTANCE = new PreSerializedRecordSerializer();

    private static final int HAS_PARTITION = 1;
    private static final int HAS_TIMESTAMP = 2;

    @Override
    public void serialize(PreSerializedRecord record, DataOutputView target) throws IOException {
        int flags = (record.partition() != null ? HAS_PARTITION : 0) | (record.timestamp() != null ? HAS_TIMESTAMP : 0);
        target.writeByte(flags);
        target.writeUTF(record.topic());
        if (record.partition() != null) {
            target.writeInt(record.partition());
        }
        if (record.timestamp() != null) {
            target.writeLong(record.timestamp());
        }
        writeBytes(record.key(), target);
        writeBytes(record.value(), target);
        List<Header> headers = record.headers();
        target.writeInt(headers.size());
        for (Header header : headers) {
            target.writeUTF(header.key());
            writeBytes(header.value(), target);
        }
    }

    @Override
    public PreSerializedRecord deserialize(DataInputView source) throws IOException {
        int flags = source.readByte();
        String topic = source.readUTF();
        Integer partition = (flags & HAS_PARTITION) != 0 ? source.readInt() : null;
        Long timestamp = (flags & HAS_TIMESTAMP) != 0 ? source.readLong() : null;
        byte[] key = readBytes(source);
        byte[] value = readBytes(source);
        int headerCount = source.readInt();
        List<Header> headers = new ArrayList<>(headerCount);
        for (int i = 0; i < headerCount; i++) {
            headers.add(new RecordHeader(source.readUTF(), readBytes(source)));
        }
        return new PreSerializedRecord(topic, partition, timestamp, key, value, headers);
    }

    @Override
    public TypeSerializerSnapshot<PreSerializedRecord> snapshotConfiguration() {
        return new PreSerializedRecordSerializerSnapshot();
    }

    private static void writeBytes(byte[] bytes, DataOutputView target) throws IOException {
        if (bytes == null) {
            target.writeInt(-1);
        } else {
            target.writeInt(bytes.length);
            target.write(bytes);
        }
    }

    private static byte[] readBytes(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }

    /**
     * Savepoint compatibility: the serializer has no parameters, so any version restores as is.
     * Savepoints record this class's name: keep it.
     */
    public static final class PreSerializedRecordSerializerSnapshot
            extends SimpleTypeSerializerSnapshot<PreSerializedRecord> {
        public PreSerializedRecordSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
