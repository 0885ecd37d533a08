package io.columnarkafka.format.arrow;

import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

/**
 * TIMESTAMP(7–9) and TIMESTAMP_LTZ(7–9) in the {@link WideTimestamps} layout: Flink's epoch milliseconds
 * and nanoseconds of the millisecond stored as they are, so every value of Flink's range fits.
 */
final class WideTimestampWriter extends FieldWriter<FixedSizeBinaryVector> {
    private final int precision;

    WideTimestampWriter(String path, FixedSizeBinaryVector vector, int precision) {
        super(path, vector);
        this.precision = precision;
    }

    @Override
    void writeValue(RowData row, int pos, int index) {
        set(index, row.getTimestamp(pos, precision));
    }

    @Override
    void writeValue(ArrayData array, int pos, int index) {
        set(index, array.getTimestamp(pos, precision));
    }

    private void set(int index, TimestampData timestamp) {
        while (index >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        BitVectorHelper.setBit(vector.getValidityBuffer(), index);
        WideTimestamps.put(vector.getDataBuffer().memoryAddress(), index,
                timestamp.getMillisecond(), timestamp.getNanoOfMillisecond());
    }
}
