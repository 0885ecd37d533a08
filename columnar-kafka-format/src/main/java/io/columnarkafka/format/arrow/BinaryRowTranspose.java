package io.columnarkafka.format.arrow;

import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The fast path of {@link RowDataArrowWriter} for {@link BinaryRowData}, the rows Flink's planner hands a
 * sink: reads each field straight out of the row's memory (null bits, the 8-byte fixed-length slot, the
 * variable-length part) into the Arrow buffers, with no {@code StringData}, {@code TimestampData} or
 * {@code DecimalData} per value and no virtual call per field.
 *
 * <p>The plan is one kind per top-level column, decided once from its type. Fixed-width values are
 * stored with unchecked writes at buffer addresses cached per batch, after one capacity check per row;
 * string and binary bytes are copied from the row's segment into the Arrow data buffer in one copy.
 * Nanosecond timestamps in the {@link WideTimestamps} layout are Flink's own pair, copied as is. Columns
 * with no direct reader (nested types, wide decimals, nanosecond timestamps in Arrow's 64-bit unit, whose
 * range check lives in {@link TimestampWriter}) keep their {@link FieldWriter}, which reads the binary row
 * through its getters.
 *
 * <p>Layout read here (Flink's {@code BinaryRowData}): a null bit set of {@code
 * calculateBitSetWidthInBytes(arity)} bytes whose first 8 bits are the header (null bit of field {@code i}
 * is bit {@code i + 8}), then one 8-byte slot per field at {@code offset + bitSetWidth + 8 * i}. A string
 * or binary slot with its highest bit set holds up to 7 bytes inline (length in bits 56–62, the bytes at
 * the slot's start on a little-endian machine); otherwise it holds the offset from the row start (high 32
 * bits) and the length (low 32 bits). A compact timestamp (precision ≤ 3) slot holds the epoch
 * milliseconds; a wider one holds the offset of the milliseconds (high 32 bits) and the nanoseconds of the
 * millisecond (low 32 bits). A compact decimal (precision ≤ 18) slot holds the unscaled long.
 *
 * <p>Used only on a little-endian machine and for rows in one heap segment (the rows a sink receives);
 * any other row goes through the generic path. Not thread-safe.
 */
final class BinaryRowTranspose {
    private static final int HEADER_BITS = 8;

    private static final byte GENERIC = 0;
    private static final byte BOOLEAN = 1;
    private static final byte INT8 = 2;
    private static final byte INT16 = 3;
    /** INT, DATE, TIME and FLOAT: four bytes copied as they are. */
    private static final byte INT32 = 4;
    /** BIGINT, DOUBLE and millisecond timestamps: eight bytes copied as they are. */
    private static final byte INT64 = 5;
    private static final byte TIMESTAMP_SECONDS = 6;
    private static final byte TIMESTAMP_MICROS = 7;
    private static final byte DECIMAL_COMPACT = 8;
    /** CHAR, VARCHAR, BINARY, VARBINARY. */
    private static final byte BYTES = 9;
    /** TIMESTAMP(7–9) in the {@link WideTimestamps} layout: millis and nanos of the milli as they are. */
    private static final byte TIMESTAMP_WIDE = 10;

    private final byte[] kinds;
    private final FieldWriter<?>[] writers;
    private final FieldVector[] vectors;
    private final int bitSetWidth;
    /** Per column, addresses of its validity and value buffers; valid for rows below {@link #capacity}. */
    private final long[] validity;
    private final long[] values;
    /** Rows every fixed-width fast column has room for; 0 forces a refresh of the addresses. */
    private int capacity;

    private BinaryRowTranspose(byte[] kinds, FieldWriter<?>[] writers, List<FieldVector> vectors) {
        this.kinds = kinds;
        this.writers = writers;
        this.vectors = vectors.subList(0, kinds.length).toArray(FieldVector[]::new);
        this.bitSetWidth = BinaryRowData.calculateBitSetWidthInBytes(kinds.length);
        this.validity = new long[kinds.length];
        this.values = new long[kinds.length];
    }

    /**
     * The plan for rows of {@code rowType} written into {@code vectors} (the first {@code writers.length}
     * of them), or null where the binary layout cannot be read directly (a big-endian machine).
     */
    static BinaryRowTranspose plan(RowType rowType, FieldWriter<?>[] writers, List<FieldVector> vectors) {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            return null;
        }
        byte[] kinds = new byte[writers.length];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = WideTimestamps.carries(vectors.get(i)) ? TIMESTAMP_WIDE : kindOf(rowType.getTypeAt(i));
        }
        return new BinaryRowTranspose(kinds, writers, vectors);
    }

    private static byte kindOf(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return BOOLEAN;
            case TINYINT:
                return INT8;
            case SMALLINT:
                return INT16;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case FLOAT:
                return INT32;
            case BIGINT:
            case DOUBLE:
                return INT64;
            case DECIMAL:
                return DecimalData.isCompact(((DecimalType) type).getPrecision()) ? DECIMAL_COMPACT : GENERIC;
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return BYTES;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestampKind(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestampKind(((LocalZonedTimestampType) type).getPrecision());
            default:
                return GENERIC;
        }
    }

    private static byte timestampKind(int precision) {
        switch (ArrowLayout.timeUnit(precision)) {
            case SECOND:
                return TIMESTAMP_SECONDS;
            case MILLISECOND:
                return TimestampData.isCompact(precision) ? INT64 : GENERIC;
            case MICROSECOND:
                return TIMESTAMP_MICROS;
            default:
                return GENERIC;
        }
    }

    /**
     * Writes {@code row} into slot {@code index} if it can be read directly: one heap segment and the
     * plan's arity. Returns false, having written nothing, otherwise.
     *
     * @throws FieldException naming the column if a generic column's writer fails
     */
    boolean write(BinaryRowData row, int index) {
        MemorySegment[] segments = row.getSegments();
        if (segments.length != 1 || segments[0].isOffHeap() || row.getArity() != kinds.length) {
            return false;
        }
        if (index >= capacity) {
            grow(index);
        }
        MemorySegment segment = segments[0];
        byte[] memory = segment.getArray();
        int base = row.getOffset();
        int slots = base + bitSetWidth;
        for (int c = 0; c < kinds.length; c++) {
            byte kind = kinds[c];
            int bit = c + HEADER_BITS;
            if ((memory[base + (bit >>> 3)] & (1 << (bit & 7))) != 0) {
                vectors[c].setNull(index);
                continue;
            }
            int slot = slots + (c << 3);
            switch (kind) {
                case BOOLEAN:
                    setValid(c, index);
                    if (memory[slot] != 0) {
                        setBit(values[c], index);
                    }
                    break;
                case INT8:
                    setValid(c, index);
                    MemoryUtil.putByte(values[c] + index, memory[slot]);
                    break;
                case INT16:
                    setValid(c, index);
                    MemoryUtil.putShort(values[c] + 2L * index, segment.getShort(slot));
                    break;
                case INT32:
                    setValid(c, index);
                    MemoryUtil.putInt(values[c] + 4L * index, segment.getInt(slot));
                    break;
                case INT64:
                    setValid(c, index);
                    MemoryUtil.putLong(values[c] + 8L * index, segment.getLong(slot));
                    break;
                case TIMESTAMP_SECONDS:
                    setValid(c, index);
                    MemoryUtil.putLong(values[c] + 8L * index, Math.floorDiv(segment.getLong(slot), 1000L));
                    break;
                case TIMESTAMP_MICROS: {
                    long offsetAndNanos = segment.getLong(slot);
                    long millis = segment.getLong(base + (int) (offsetAndNanos >> 32));
                    setValid(c, index);
                    MemoryUtil.putLong(values[c] + 8L * index, millis * 1000L + (int) offsetAndNanos / 1000);
                    break;
                }
                case TIMESTAMP_WIDE: {
                    long offsetAndNanos = segment.getLong(slot);
                    setValid(c, index);
                    WideTimestamps.put(values[c], index,
                            segment.getLong(base + (int) (offsetAndNanos >> 32)), (int) offsetAndNanos);
                    break;
                }
                case DECIMAL_COMPACT: {
                    long unscaled = segment.getLong(slot);
                    long address = values[c] + 16L * index;
                    setValid(c, index);
                    MemoryUtil.putLong(address, unscaled);
                    MemoryUtil.putLong(address + 8, unscaled >> 63);
                    break;
                }
                case BYTES: {
                    long offsetAndLength = segment.getLong(slot);
                    BaseVariableWidthVector vector = (BaseVariableWidthVector) vectors[c];
                    if (offsetAndLength < 0) { // inline: up to 7 bytes in the slot itself
                        vector.setSafe(index, memory, slot, (int) (offsetAndLength >>> 56) & 0x7F);
                    } else {
                        vector.setSafe(index, memory, base + (int) (offsetAndLength >> 32), (int) offsetAndLength);
                    }
                    break;
                }
                default:
                    try {
                        writers[c].write(row, c, index);
                    } catch (RuntimeException e) {
                        throw new FieldException(c, e);
                    }
            }
        }
        return true;
    }

    /** The generic path wrote a row: it may have grown any vector, so re-read the addresses next time. */
    void invalidate() {
        capacity = 0;
    }

    /** Grows every fixed-width fast column to hold {@code index}, then caches their buffer addresses. */
    private void grow(int index) {
        int room = Integer.MAX_VALUE;
        for (int c = 0; c < kinds.length; c++) {
            if (kinds[c] == GENERIC || kinds[c] == BYTES) {
                continue;
            }
            FieldVector vector = vectors[c];
            while (vector.getValueCapacity() <= index) {
                vector.reAlloc();
            }
            room = Math.min(room, vector.getValueCapacity());
            validity[c] = vector.getValidityBuffer().memoryAddress();
            ArrowBuf data = vector.getDataBuffer();
            values[c] = data.memoryAddress();
        }
        capacity = room;
    }

    private void setValid(int column, int index) {
        setBit(validity[column], index);
    }

    private static void setBit(long address, int index) {
        long at = address + (index >>> 3);
        MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | (1 << (index & 7))));
    }

    /** A generic column's writer failed; {@link #column} is its position. */
    static final class FieldException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int column;

        FieldException(int column, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.column = column;
        }
    }
}
