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
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The planned transpose of {@link RowDataArrowWriter}: one kind per top-level column, decided once from
 * its type and vector, then per row one {@code switch} over a byte per column, with fixed-width values
 * stored by unchecked writes at buffer addresses cached per batch after one capacity check per row. No
 * virtual call per field; columns with no kind of their own (nested types, wide decimals, nanosecond
 * timestamps in Arrow's 64-bit unit, whose range check lives in {@link TimestampWriter}) keep their
 * {@link FieldWriter}.
 *
 * <p>Two readers share the plan:
 *
 * <ul>
 *   <li>{@link #writeBinary}, for {@link BinaryRowData} (the rows of a network exchange): reads each field
 *       straight out of the row's memory (null bits, the 8-byte fixed-length slot, the variable-length
 *       part), with no {@code StringData}, {@code TimestampData} or {@code DecimalData} per value; string
 *       and binary bytes are copied from the row's segment into the Arrow data buffer in one copy.
 *       Nanosecond timestamps in the {@link WideTimestamps} layout are Flink's own pair, copied as is.
 *   <li>{@link #writeGetters}, for any other row ({@code GenericRowData} behind a source, {@code
 *       BoxedWrapperRowData} behind a chained Calc): the typed getter of each column's kind ({@code
 *       getLong}, {@code getInt}, ...: no boxing, these classes keep primitives unboxed or boxed already);
 *       a string's bytes are copied from its heap segment when it has one (a {@code BinaryStringData}),
 *       else from {@code toBytes()}.
 * </ul>
 *
 * <p>Binary layout read here (Flink's {@code BinaryRowData}): a null bit set of {@code
 * calculateBitSetWidthInBytes(arity)} bytes whose first 8 bits are the header (null bit of field {@code i}
 * is bit {@code i + 8}), then one 8-byte slot per field at {@code offset + bitSetWidth + 8 * i}. A string
 * or binary slot with its highest bit set holds up to 7 bytes inline (length in bits 56–62, the bytes at
 * the slot's start on a little-endian machine); otherwise it holds the offset from the row start (high 32
 * bits) and the length (low 32 bits). A compact timestamp (precision ≤ 3) slot holds the epoch
 * milliseconds; a wider one holds the offset of the milliseconds (high 32 bits) and the nanoseconds of the
 * millisecond (low 32 bits). A compact decimal (precision ≤ 18) slot holds the unscaled long.
 *
 * <p>Planned only on a little-endian machine (the unchecked stores and the binary slots assume it); the
 * binary reader takes rows in one heap segment with the plan's arity, the getter reader rows of the plan's
 * arity. Not thread-safe.
 */
final class RowTranspose {
    private static final int HEADER_BITS = 8;

    // Column kinds. In a binary row INT32 and FLOAT are four bytes of the slot, INT64, DOUBLE and
    // TIMESTAMP_MILLIS eight, STRING and BINARY the same slot format: the binary reader treats each group alike.
    private static final byte GENERIC = 0;
    private static final byte BOOLEAN = 1;
    private static final byte INT8 = 2;
    private static final byte INT16 = 3;
    /** INT, DATE, TIME and INTERVAL YEAR TO MONTH. */
    private static final byte INT32 = 4;
    private static final byte FLOAT = 5;
    /** BIGINT and INTERVAL DAY TO SECOND. */
    private static final byte INT64 = 6;
    private static final byte DOUBLE = 7;
    /** TIMESTAMP(1–3), compact in a binary row. */
    private static final byte TIMESTAMP_MILLIS = 8;
    private static final byte TIMESTAMP_SECONDS = 9;
    private static final byte TIMESTAMP_MICROS = 10;
    /** TIMESTAMP(7–9) in the {@link WideTimestamps} layout: millis and nanos of the milli as they are. */
    private static final byte TIMESTAMP_WIDE = 11;
    private static final byte DECIMAL_COMPACT = 12;
    /** CHAR, VARCHAR. */
    private static final byte STRING = 13;
    /** BINARY, VARBINARY. */
    private static final byte BINARY = 14;
    /** TIMESTAMP(0–3) in the {@link WideTimestamps} layout: compact (epoch millis) in a binary row. */
    private static final byte TIMESTAMP_WIDE_COMPACT = 15;

    private final byte[] kinds;
    /** Per column, the timestamp precision or decimal precision and scale its getter needs. */
    private final int[] precisions;
    private final int[] scales;
    private final FieldWriter<?>[] writers;
    private final FieldVector[] vectors;
    private final int bitSetWidth;
    /** Per column, addresses of its validity and value buffers; valid for rows below {@link #capacity}. */
    private final long[] validity;
    private final long[] values;
    /** Rows every fixed-width fast column has room for; 0 forces a refresh of the addresses. */
    private int capacity;

    private RowTranspose(byte[] kinds, int[] precisions, int[] scales, FieldWriter<?>[] writers,
            List<FieldVector> vectors) {
        this.kinds = kinds;
        this.precisions = precisions;
        this.scales = scales;
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
    static RowTranspose plan(RowType rowType, FieldWriter<?>[] writers, List<FieldVector> vectors) {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            return null;
        }
        byte[] kinds = new byte[writers.length];
        int[] precisions = new int[writers.length];
        int[] scales = new int[writers.length];
        for (int i = 0; i < kinds.length; i++) {
            LogicalType type = rowType.getTypeAt(i);
            precisions[i] = precisionOf(type);
            kinds[i] = !WideTimestamps.carries(vectors.get(i)) ? kindOf(type)
                    : TimestampData.isCompact(precisions[i]) ? TIMESTAMP_WIDE_COMPACT : TIMESTAMP_WIDE;
            scales[i] = type instanceof DecimalType d ? d.getScale() : 0;
        }
        return new RowTranspose(kinds, precisions, scales, writers, vectors);
    }

    private static int precisionOf(LogicalType type) {
        return type instanceof TimestampType || type instanceof LocalZonedTimestampType
                || type instanceof DecimalType ? LogicalTypeChecks.getPrecision(type) : 0;
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
            case INTERVAL_YEAR_MONTH:
                return INT32;
            case FLOAT:
                return FLOAT;
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return INT64;
            case DOUBLE:
                return DOUBLE;
            case DECIMAL:
                return DecimalData.isCompact(((DecimalType) type).getPrecision()) ? DECIMAL_COMPACT : GENERIC;
            case CHAR:
            case VARCHAR:
                return STRING;
            case BINARY:
            case VARBINARY:
                return BINARY;
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
                return TIMESTAMP_MILLIS;
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
    boolean writeBinary(BinaryRowData row, int index) {
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
                case FLOAT:
                    setValid(c, index);
                    MemoryUtil.putInt(values[c] + 4L * index, segment.getInt(slot));
                    break;
                case INT64:
                case DOUBLE:
                case TIMESTAMP_MILLIS:
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
                case TIMESTAMP_WIDE_COMPACT:
                    setValid(c, index);
                    WideTimestamps.put(values[c], index, segment.getLong(slot), 0);
                    break;
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
                case STRING:
                case BINARY: {
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

    /**
     * Writes {@code row} into slot {@code index} through its typed getters, if it has the plan's arity.
     * Returns false, having written nothing, otherwise.
     *
     * @throws FieldException naming the column if a value cannot be read or written (not of the column's
     *     internal data type; in Arrow's nanosecond unit, a timestamp outside its range)
     */
    boolean writeGetters(RowData row, int index) {
        if (row.getArity() != kinds.length) {
            return false;
        }
        if (index >= capacity) {
            grow(index);
        }
        int c = 0;
        try {
            for (; c < kinds.length; c++) {
                if (row.isNullAt(c)) {
                    vectors[c].setNull(index);
                    continue;
                }
                switch (kinds[c]) {
                    case BOOLEAN:
                        setValid(c, index);
                        if (row.getBoolean(c)) {
                            setBit(values[c], index);
                        }
                        break;
                    case INT8:
                        setValid(c, index);
                        MemoryUtil.putByte(values[c] + index, row.getByte(c));
                        break;
                    case INT16:
                        setValid(c, index);
                        MemoryUtil.putShort(values[c] + 2L * index, row.getShort(c));
                        break;
                    case INT32:
                        setValid(c, index);
                        MemoryUtil.putInt(values[c] + 4L * index, row.getInt(c));
                        break;
                    case FLOAT:
                        setValid(c, index);
                        MemoryUtil.putInt(values[c] + 4L * index, Float.floatToRawIntBits(row.getFloat(c)));
                        break;
                    case INT64:
                        setValid(c, index);
                        MemoryUtil.putLong(values[c] + 8L * index, row.getLong(c));
                        break;
                    case DOUBLE:
                        setValid(c, index);
                        MemoryUtil.putLong(values[c] + 8L * index, Double.doubleToRawLongBits(row.getDouble(c)));
                        break;
                    case TIMESTAMP_MILLIS:
                        setValid(c, index);
                        MemoryUtil.putLong(values[c] + 8L * index, row.getTimestamp(c, precisions[c]).getMillisecond());
                        break;
                    case TIMESTAMP_SECONDS:
                        setValid(c, index);
                        MemoryUtil.putLong(values[c] + 8L * index,
                                Math.floorDiv(row.getTimestamp(c, precisions[c]).getMillisecond(), 1000L));
                        break;
                    case TIMESTAMP_MICROS: {
                        TimestampData t = row.getTimestamp(c, precisions[c]);
                        setValid(c, index);
                        MemoryUtil.putLong(values[c] + 8L * index,
                                t.getMillisecond() * 1000L + t.getNanoOfMillisecond() / 1000);
                        break;
                    }
                    case TIMESTAMP_WIDE:
                    case TIMESTAMP_WIDE_COMPACT: {
                        TimestampData t = row.getTimestamp(c, precisions[c]);
                        setValid(c, index);
                        WideTimestamps.put(values[c], index, t.getMillisecond(), t.getNanoOfMillisecond());
                        break;
                    }
                    case DECIMAL_COMPACT: {
                        long unscaled = row.getDecimal(c, precisions[c], scales[c]).toUnscaledLong();
                        long address = values[c] + 16L * index;
                        setValid(c, index);
                        MemoryUtil.putLong(address, unscaled);
                        MemoryUtil.putLong(address + 8, unscaled >> 63);
                        break;
                    }
                    case STRING:
                        ScalarWriters.StringWriter.set((BaseVariableWidthVector) vectors[c], index, row.getString(c));
                        break;
                    case BINARY: {
                        byte[] bytes = row.getBinary(c);
                        ((BaseVariableWidthVector) vectors[c]).setSafe(index, bytes, 0, bytes.length);
                        break;
                    }
                    default:
                        writers[c].write(row, c, index);
                }
            }
        } catch (RuntimeException e) {
            throw new FieldException(c, e);
        }
        return true;
    }

    /** A writer outside the plan filled a row: it may have grown any vector, so re-read the addresses. */
    void invalidate() {
        capacity = 0;
    }

    /** Grows every fixed-width fast column to hold {@code index}, then caches their buffer addresses. */
    private void grow(int index) {
        int room = Integer.MAX_VALUE;
        for (int c = 0; c < kinds.length; c++) {
            if (kinds[c] == GENERIC || kinds[c] == STRING || kinds[c] == BINARY) {
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
