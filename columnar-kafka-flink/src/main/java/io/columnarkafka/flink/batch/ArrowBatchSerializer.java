package io.columnarkafka.flink.batch;

import io.columnarkafka.flink.typeutils.ImmutableRecordSerializer;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes an {@link ArrowBatch} as its Arrow IPC stream: a 4-byte length, then the stream bytes.
 * The IPC stream carries the schema, so the wire form is self-describing and stays readable across
 * Arrow versions that keep the IPC format.
 *
 * <p>Serializing a live batch makes it let go of its vectors (see {@link ArrowBatch}); deserializing
 * yields a wire-form batch holding heap bytes only, opened later into the consumer's allocator.
 *
 * <p>{@link #copy} returns the same instance: an emitted batch is immutable and has one consumer.
 */
public final class ArrowBatchSerializer extends ImmutableRecordSerializer<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    public static final ArrowBatchSerializer INSTANCE = new ArrowBatchSerializer();

    @Override
    public void serialize(ArrowBatch batch, DataOutputView target) throws IOException {
        byte[] ipc = batch.ipcStream();
        target.writeInt(ipc.length);
        target.write(ipc);
    }

    @Override
    public ArrowBatch deserialize(DataInputView source) throws IOException {
        byte[] ipc = new byte[source.readInt()];
        source.readFully(ipc);
        return ArrowBatch.fromIpc(ipc);
    }

    /** Copies the IPC bytes as they are: no batch is opened. */
    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        byte[] ipc = new byte[source.readInt()];
        source.readFully(ipc);
        target.writeInt(ipc.length);
        target.write(ipc);
    }

    @Override
    public TypeSerializerSnapshot<ArrowBatch> snapshotConfiguration() {
        return new ArrowBatchSerializerSnapshot();
    }

    /**
     * Savepoint compatibility: the wire form has no parameters, so any version restores as is.
     * Savepoints record this class's name: keep it.
     */
    public static final class ArrowBatchSerializerSnapshot extends SimpleTypeSerializerSnapshot<ArrowBatch> {
        public ArrowBatchSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
