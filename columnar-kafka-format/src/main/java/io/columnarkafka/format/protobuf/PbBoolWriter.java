package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/** BOOLEAN (Arrow Bool) as a one-byte varint; a map key hashes as {@code Boolean.hashCode()}. */
final class PbBoolWriter extends PbWriter implements PbMapKey {
    private long data;

    PbBoolWriter(String path, PbField field) {
        super(path, field);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (count + 7L) / 8, "data");
    }

    private boolean value(int index) {
        return !isNull(index) && ((MemoryUtil.getByte(data + (index >> 3)) >> (index & 7)) & 1) != 0;
    }

    @Override
    void write(ByteOutput out, int index) {
        out.writeByte((byte) (value(index) ? 1 : 0));
    }

    @Override
    void writeDefault(ByteOutput out) {
        out.writeByte((byte) 0);
    }

    @Override
    boolean isDefault(int index) {
        return !value(index);
    }

    @Override
    public long hash(int entry) {
        return value(entry) ? 1231 : 1237;
    }

    @Override
    public boolean same(int a, int b) {
        return value(a) == value(b);
    }

    @Override
    public Object javaKey(int entry) {
        return value(entry);
    }
}
