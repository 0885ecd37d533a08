package io.columnarkafka.flink.typeutils;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information of an immutable record type that brings its own serializer, so Flink never falls
 * back to Kryo or to POJO analysis for it. A leaf type: one field, no key, no tuple.
 *
 * <p>Subclasses are stateless singletons; two instances are equal when their classes are.
 */
public abstract class ImmutableRecordTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;
    private final TypeSerializer<T> serializer;

    protected ImmutableRecordTypeInfo(Class<T> typeClass, TypeSerializer<T> serializer) {
        this.typeClass = typeClass;
        this.serializer = serializer;
    }

    @Override
    public final boolean isBasicType() {
        return false;
    }

    @Override
    public final boolean isTupleType() {
        return false;
    }

    @Override
    public final int getArity() {
        return 1;
    }

    @Override
    public final int getTotalFields() {
        return 1;
    }

    @Override
    public final Class<T> getTypeClass() {
        return typeClass;
    }

    @Override
    public final boolean isKeyType() {
        return false;
    }

    @Override
    public final TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public final String toString() {
        return typeClass.getSimpleName();
    }

    @Override
    public final boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public final boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }
}
