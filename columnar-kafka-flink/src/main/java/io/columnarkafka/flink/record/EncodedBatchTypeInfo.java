package io.columnarkafka.flink.record;

import io.columnarkafka.flink.typeutils.ImmutableRecordTypeInfo;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Type information of {@link EncodedBatch}: serialized by {@link EncodedBatchSerializer},
 * never by Kryo or as a POJO.
 */
public final class EncodedBatchTypeInfo extends ImmutableRecordTypeInfo<EncodedBatch> {
    private static final long serialVersionUID = 1L;

    public static final EncodedBatchTypeInfo INSTANCE = new EncodedBatchTypeInfo();

    private EncodedBatchTypeInfo() {
        super(EncodedBatch.class, EncodedBatchSerializer.INSTANCE);
    }

    /** Lets Flink's type extraction find this type information through {@code @TypeInfo}. */
    public static final class Factory extends TypeInfoFactory<EncodedBatch> {
        @Override
        public TypeInformation<EncodedBatch> createTypeInfo(
                Type type, Map<String, TypeInformation<?>> genericParameters) {
            return INSTANCE;
        }
    }
}
