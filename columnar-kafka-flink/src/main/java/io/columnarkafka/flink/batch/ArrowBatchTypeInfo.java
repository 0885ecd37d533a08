package io.columnarkafka.flink.batch;

import io.columnarkafka.flink.typeutils.ImmutableRecordTypeInfo;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** Type information of {@link ArrowBatch}: serialized by {@link ArrowBatchSerializer}, never by Kryo. */
public final class ArrowBatchTypeInfo extends ImmutableRecordTypeInfo<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    public static final ArrowBatchTypeInfo INSTANCE = new ArrowBatchTypeInfo();

    private ArrowBatchTypeInfo() {
        super(ArrowBatch.class, ArrowBatchSerializer.INSTANCE);
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
