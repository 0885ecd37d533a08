package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.DecimalText;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * DECIMAL(p, s) (Arrow Decimal128) as Flink's Jackson writes a {@code BigDecimal} number: by default
 * {@linkplain DecimalText.Style#STRIPPED stripped} ({@code 1E+2}); with {@code
 * encode.decimal-as-plain-number} {@linkplain DecimalText.Style#PLAIN plain} with the scale kept.
 */
final class DecimalJsonWriter extends FlatJsonWriter {
    private final DecimalText text;
    private long data;

    DecimalJsonWriter(String path, int precision, int scale, boolean plain) {
        super(path);
        this.text = new DecimalText(
                path, precision, scale, plain ? DecimalText.Style.PLAIN : DecimalText.Style.STRIPPED);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * 16, "data");
    }

    @Override
    long maxBytes() {
        return text.maxBytes();
    }

    @Override
    int put(ByteOutput out, int p, int index) {
        return text.put(out, p, MemoryUtil.getLong(data + 16L * index), MemoryUtil.getLong(data + 16L * index + 8));
    }
}
