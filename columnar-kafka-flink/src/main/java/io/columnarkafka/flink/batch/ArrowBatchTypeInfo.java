package io.columnarkafka.flink.batch;

import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link ArrowBatch}: serialized by {@link ArrowBatchSerializer}, never by Kryo. */
public final class ArrowBatchTypeInfo extends TypeInformation<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    public static final ArrowBatchTypeInfo INSTANCE = new ArrowBatchTypeInfo();

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<ArrowBatch> getTypeClass() {
        return ArrowBatch.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<ArrowBatch> createSerializer(SerializerConfig config) {
        return ArrowBatchSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "ArrowBatch";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ArrowBatchTypeInfo;
    }

    @Override
    public int hashCode() {
        return ArrowBatchTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof ArrowBatchTypeInfo;
    }

    /** Lets Flink's type extraction find this type information through {@code @TypeInfo}. */
    public static final class Factory extends TypeInfoFactory<ArrowBatch> {
        @Override
        public TypeInformation<ArrowBatch> createTypeInfo(
                Type type, Map<String, TypeInformation<?>> genericParameters) {
            return INSTANCE;
        }
    }
}
