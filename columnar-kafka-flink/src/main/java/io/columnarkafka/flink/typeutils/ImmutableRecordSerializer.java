package io.columnarkafka.flink.typeutils;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of an immutable record type with a variable-length wire form: {@link #copy} returns the
 * same instance and there is no reusable instance to deserialize into. Subclasses write and read the
 * wire form, and keep their own snapshot class, whose name savepoints record.
 */
public abstract class ImmutableRecordSerializer<T> extends TypeSerializerSingleton<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final T createInstance() {
        return null;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    /** Copies through a deserialized record; override when the wire form can be copied as raw bytes. */
    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }
}
