package io.columnarkafka.flink.record;

import io.columnarkafka.flink.typeutils.ImmutableRecordTypeInfo;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Type information of {@link PreSerializedRecord}: serialized by {@link PreSerializedRecordSerializer},
 * never by Kryo or as a POJO.
 */
public final class PreSerializedRecordTypeInfo extends ImmutableRecordTypeInfo<PreSerializedRecord> {
    private static final long serialVersionUID = 1L;

    public static final PreSerializedRecordTypeInfo INSTANCE = new PreSerializedRecordTypeInfo();

    private PreSerializedRecordTypeInfo() {
        super(PreSerializedRecord.class, PreSerializedRecordSerializer.INSTANCE);
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
