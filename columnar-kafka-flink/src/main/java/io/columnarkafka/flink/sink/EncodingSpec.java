package io.columnarkafka.flink.sink;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the sink writes for each row: the batch row type, the value format, and optionally the key
 * columns and key format. Shipped to the tasks, where each plans its encoders once.
 */
final class EncodingSpec implements BatchEncoding {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final String topic;
    private final String valueFormat;
    private final Map<String, String> valueOptions;
    private final int[] keyFields;
    private final List<String> keyNames;
    private final String keyFormat;
    private final Map<String, String> keyOptions;

    EncodingSpec(
            RowType rowType,
            String topic,
            String valueFormat,
            Map<String, String> valueOptions,
            int[] keyFields,
            List<String> keyNames,
            String keyFormat,
            Map<String, String> keyOptions) {
        this.rowType = Objects.requireNonNull(rowType);
        this.topic = Objects.requireNonNull(topic);
        this.valueFormat = Objects.requireNonNull(valueFormat);
        this.valueOptions = Map.copyOf(valueOptions);
        this.keyFields = keyFields.clone();
        this.keyNames = List.copyOf(keyNames);
        this.keyFormat = keyFormat;
        this.keyOptions = Map.copyOf(keyOptions);
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public String topic() {
        return topic;
    }

    String valueFormat() {
        return valueFormat;
    }

    @Override
    public String describe() {
        return valueFormat;
    }

    /** The value encoder: every column under its own name (Flink's {@code value.fields-include=ALL}). */
    @Override
    public BatchEncoder valueEncoder() {
        return Formats.encoder(valueFormat, Projection.all(rowType), valueOptions);
    }

    /** The key encoder over the key columns in the configured order, or null when no key is written. */
    @Override
    public BatchEncoder keyEncoder() {
        if (keyFields.length == 0) {
            return null;
        }
        return Formats.encoder(keyFormat, Projection.of(rowType, keyFields).withNames(keyNames), keyOptions);
    }
}
