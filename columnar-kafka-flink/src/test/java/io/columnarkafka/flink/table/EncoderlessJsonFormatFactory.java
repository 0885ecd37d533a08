package io.columnarkafka.flink.table;

import java.util.Set;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.formats.json.JsonFormatFactory;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.SerializationFormatFactory;

/**
 * A test format that no columnar encoder knows: Flink's {@code json} writer under the identifier {@value
 * #IDENTIFIER}, with json's defaults. Every Flink format on the test class path has a columnar encoder, so this
 * one lets an end-to-end test see the {@code no columnar encoder} fallback run Flink's own sink.
 */
public final class EncoderlessJsonFormatFactory implements SerializationFormatFactory {
    static final String IDENTIFIER = "test-encoderless-json";

    @Override
    public EncodingFormat<SerializationSchema<RowData>> createEncodingFormat(DynamicTableFactory.Context context,
            ReadableConfig formatOptions) {
        return new JsonFormatFactory().createEncodingFormat(context, formatOptions);
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }
}
