package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BOOLEAN (Arrow Bool, one bit per value) as {@code true} or {@code false}, never quoted. */
final class BooleanCsvWriter extends CsvValueWriter {
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

    private long data;

    BooleanCsvWriter(String path) {
        super(path, false);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (count + 7L) / 8, "data");
    }

    @Override
    void write(ByteOutput out, int index) {
        boolean value = (MemoryUtil.getByte(data + (index >> 3)) & (1 << (index & 7))) != 0;
        out.writeBytes(value ? TRUE : FALSE);
    }
}
