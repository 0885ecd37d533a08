package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.text.DecimalText;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * DECIMAL (Arrow Decimal128) as a number: plain with the scale kept ({@code 100.00}) unless {@code
 * write-bigdecimal-in-scientific-notation} is {@code true}, then {@code stripTrailingZeros().toString()}
 * ({@code 1E+2}).
 */
final class DecimalCsvWriter extends FixedWidthCsvWriter {
    private final DecimalText text;

    DecimalCsvWriter(String path, int precision, int scale, boolean scientific) {
        super(path, false, 16);
        this.text = new DecimalText(path, precision, scale,
                scientific ? DecimalText.Style.STRIPPED : DecimalText.Style.PLAIN);
    }

    @Override
    void write(ByteOutput out, int index) {
        text.write(out, MemoryUtil.getLong(data + 16L * index), MemoryUtil.getLong(data + 16L * index + 8));
    }
}
