package io.columnarkafka.flink.record;

import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information of {@link PreSerializedRecord}: serialized by {@link PreSerializedRecordSerializer},
 * never by Kryo or as a POJO.
 */
public final class PreSerializedRecordTypeInfo extends TypeInformation<PreSerializedRecord> {
    private static final long serialVersionUID = 1L;

    public static final PreSerializedRecordTypeInfo INSTANCE = new PreSerializedRecordTypeInfo();

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
    public Class<PreSerializedRecord> getTypeClass() {
        return PreSerializedRecord.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<PreSerializedRecord> createSerializer(SerializerConfig config) {
        return PreSerializedRecordSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "PreSerializedRecord";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PreSerializedRecordTypeInfo;
    }

    @Override
    public int hashCode() {
        return PreSerializedRecordTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof PreSerializedRecordTypeInfo;
    }

    /** Lets Flink's type extraction find this type information through {@code @TypeInfo}. */
    public static final class Factory extends TypeInfoFactory<PreSerializedRecord> {
        @Override
        public TypeInformation<PreSerializedRecord> createTypeInfo(
                Type type, Map<String, TypeInformation<?>> genericParameters) {
            return INSTANCE;
        }
    }
}
