package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.columnarkafka.format.ByteOutput;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * INT (Arrow Int 32) or BIGINT (Arrow Int 64) as any protobuf integer type: int32/int64/uint64 as varints
 * of the value (int32 sign-extended to 64 bits, as {@code writeInt32NoTag}), uint32 as the varint of its
 * 32 bits, sint32/sint64 zig-zagged, fixed/sfixed little-endian. Also a map key, hashed as the
 * {@code Integer} or {@code Long} Flink's HashMap holds.
 */
final class PbNumberWriter extends PbWriter implements PbMapKey {
    private static final int VARINT = 0;
    private static final int UINT32 = 1;
    private static final int ZIGZAG32 = 2;
    private static final int ZIGZAG64 = 3;
    private static final int FIXED32 = 4;
    private static final int FIXED64 = 5;

    /** How the value is spelled, one of the constants above: an int switch, not an enum's ordinal map. */
    private final int encoding;
    private final int width;
    private long data;

    PbNumberWriter(String path, PbField field, FieldDescriptor.Type type, int width) {
        super(path, field);
        this.encoding = encoding(type);
        this.width = width;
    }

    private static int encoding(FieldDescriptor.Type type) {
        switch (type) {
            case UINT32:
                return UINT32;
            case SINT32:
                return ZIGZAG32;
            case SINT64:
                return ZIGZAG64;
            case FIXED32:
            case SFIXED32:
                return FIXED32;
            case FIXED64:
            case SFIXED64:
                return FIXED64;
            default: // INT32 (already sign-extended), INT64, UINT64
                return VARINT;
        }
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), (long) count * width, "data");
    }

    private long value(int index) {
        return width == 4 ? MemoryUtil.getInt(data + 4L * index) : MemoryUtil.getLong(data + 8L * index);
    }

    @Override
    void write(ByteOutput out, int index) {
        writeNumber(out, value(index));
    }

    /** As {@link PbWriter#writeField}, reading the value once and making room for tag and value at once. */
    @Override
    void writeField(ByteOutput out, int index) {
        if (isNull(index)) {
            super.writeField(out, index);
            return;
        }
        long v = value(index);
        if (v == 0 && !presence) {
            return;
        }
        out.ensure(tag.length + PbWire.MAX_VARINT);
        putTag(out);
        putNumber(out, v);
    }

    /** As {@link #writeField} for a column that is not required; the caller has ensured {@link #maxFieldBytes}. */
    void putField(ByteOutput out, int index) {
        if (isNull(index)) {
            return;
        }
        long v = value(index);
        if (v == 0 && !presence) {
            return;
        }
        putTag(out);
        putNumber(out, v);
    }

    /** The most bytes {@link #putField} writes. */
    int maxFieldBytes() {
        return tag.length + PbWire.MAX_VARINT;
    }

    @Override
    void writeDefault(ByteOutput out) {
        writeNumber(out, 0);
    }

    @Override
    boolean isDefault(int index) {
        return value(index) == 0;
    }

    private void writeNumber(ByteOutput out, long v) {
        out.ensure(PbWire.MAX_VARINT);
        putNumber(out, v);
    }

    /** Writes the value; the caller has ensured {@link PbWire#MAX_VARINT} bytes. */
    private void putNumber(ByteOutput out, long v) {
        switch (encoding) {
            case VARINT:
                out.putVarint(v);
                break;
            case UINT32:
                out.putVarint(v & 0xFFFFFFFFL);
                break;
            case ZIGZAG32:
                out.putVarint(((((int) v) << 1) ^ (((int) v) >> 31)) & 0xFFFFFFFFL);
                break;
            case ZIGZAG64:
                out.putVarint((v << 1) ^ (v >> 63));
                break;
            case FIXED32:
                out.putIntLE((int) v);
                break;
            default: // FIXED64
                out.putLongLE(v);
        }
    }

    @Override
    public long hash(int entry) {
        if (isNull(entry)) {
            return 0; // the default key 0: Integer and Long hash 0
        }
        long v = value(entry);
        return (width == 4 ? (int) v : (int) (v ^ (v >>> 32))) & 0xFFFFFFFFL;
    }

    @Override
    public boolean same(int a, int b) {
        return (isNull(a) ? 0 : value(a)) == (isNull(b) ? 0 : value(b));
    }

    @Override
    public Object javaKey(int entry) {
        long v = isNull(entry) ? 0 : value(entry);
        return width == 4 ? (Object) (int) v : (Object) v;
    }
}
