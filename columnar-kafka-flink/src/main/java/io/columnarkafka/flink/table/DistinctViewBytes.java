package io.columnarkafka.flink.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * A group's distinct values of one column ({@link DistinctValues}) as the bytes of the RAW field Flink's local
 * aggregate emits for the column's distinct accumulator, once serialized: what Flink's {@code ExternalSerializer}
 * writes for the accumulator's heap {@code MapView} (its type {@code DataViewUtils.createDistinctViewDataType}: a
 * structured type of one field, {@code map}, a MAP of the column's type to a BIGINT NOT NULL, or to an ARRAY of
 * BIGINT NOT NULL where the values count their rows per call), and so what {@code RowDataSerializer.toBinaryRow}
 * copies into the row. Written straight from the values: no map, view or boxed key per value.
 *
 * <p>The bytes: the serialized length (a big-endian int, {@code BinaryRowDataSerializer}) of a binary row of
 * the one field (an INSERT header of 8 bytes, the field's offset and size, then the map rounded to 8 bytes); the
 * map ({@code BinaryMapData}): the key array's size (4 bytes), the key array, the value array; each array ({@code
 * BinaryArrayData}, as {@code BinaryArrayWriter} writes it): the element count (4 bytes), a null bit per element
 * rounded to 4 bytes, the elements (INT 4 bytes, BIGINT 8, a string's offset and size or, up to 7 bytes, the bytes
 * themselves with 0x80 | length in the last byte), rounded to 8, then the longer strings' and the nested arrays'
 * bytes, each rounded to 8 with zeros. Ints and longs in the platform's order, as Flink's {@code MemorySegment}.
 *
 * <p>The entries come in the group's order here, where Flink's come in its {@code HashMap}'s; the global phase
 * reads the bytes back into a {@code HashMap} and merges it value by value ({@code DistinctAggCodeGen.merge}: a
 * value's bits are or-ed, its counts added, each call counting a value it had not seen), so the order changes
 * nothing it computes.
 */
final class DistinctViewBytes {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle BIG_ENDIAN_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    /** The longest string an array holds in its element (Flink's {@code BinaryFormat.MAX_FIX_PART_DATA_SIZE}). */
    private static final int MAX_INLINE_STRING = 7;
    /** The serialized length, then the row's header and its field's offset and size. */
    private static final int MAP_OFFSET = 4 + 16;

    private final AggColumnType keyType;

    DistinctViewBytes(AggColumnType keyType) {
        this.keyType = keyType;
    }

    /** The serialized accumulator of the group at {@code entry}: its values but those gone ({@code isGone}). */
    byte[] of(DistinctValues values, int entry) {
        int count = 0;
        for (int index = values.first(entry); index >= 0; index = values.next(index)) {
            count += values.isGone(index) ? 0 : 1;
        }
        int width = values.width();
        byte[] pool = values.pool();
        int keyElement = keyType == AggColumnType.INT ? 4 : 8;
        int header = header(count); // both arrays'
        int keysFixed = wordAligned(header + keyElement * count);
        int keysSize = keysFixed;
        if (keyType == AggColumnType.VARCHAR) {
            for (int index = values.first(entry); index >= 0; index = values.next(index)) {
                int length = (int) values.value(index);
                if (!values.isNull(index) && !values.isGone(index) && length > MAX_INLINE_STRING) {
                    keysSize += wordAligned(length);
                }
            }
        }
        int valuesFixed = wordAligned(header + 8 * count);
        // a count per call: each value's counts a nested array of BIGINT
        int nested = width == 1 ? 0 : wordAligned(header(width) + 8 * width);
        int mapSize = 4 + keysSize + valuesFixed + nested * count;
        int rowSize = 16 + wordAligned(mapSize);
        byte[] bytes = new byte[4 + rowSize];
        BIG_ENDIAN_INT.set(bytes, 0, rowSize);
        // the row's header (kind INSERT, the field not null) stays 0
        LONG.set(bytes, 4 + 8, (long) 16 << 32 | mapSize);
        INT.set(bytes, MAP_OFFSET, keysSize);
        int keys = MAP_OFFSET + 4;
        int vals = keys + keysSize;
        INT.set(bytes, keys, count);
        INT.set(bytes, vals, count);
        int keysCursor = keysFixed;
        int valuesCursor = valuesFixed;
        int i = 0;
        for (int index = values.first(entry); index >= 0; index = values.next(index)) {
            if (values.isGone(index)) {
                continue;
            }
            int key = keys + header + keyElement * i;
            if (values.isNull(index)) {
                bytes[keys + 4 + (i >>> 3)] |= (byte) (1 << (i & 7)); // the element stays 0
            } else if (keyType == AggColumnType.INT) {
                INT.set(bytes, key, (int) values.value(index));
            } else if (keyType != AggColumnType.VARCHAR) {
                // a BIGINT, or a compact DECIMAL's unscaled long (BinaryArrayWriter.writeDecimal)
                LONG.set(bytes, key, values.value(index));
            } else {
                keysCursor = string(bytes, keys, key, keysCursor, pool, values.value(index));
            }
            int value = vals + header + 8 * i++;
            if (width == 1) {
                LONG.set(bytes, value, values.mark(index, 0));
                continue;
            }
            LONG.set(bytes, value, (long) valuesCursor << 32 | nested);
            int array = vals + valuesCursor;
            INT.set(bytes, array, width);
            for (int c = 0; c < width; c++) {
                LONG.set(bytes, array + header(width) + 8 * c, values.mark(index, c));
            }
            valuesCursor += nested;
        }
        return bytes;
    }

    /**
     * Writes the string {@code range} (offset << 32 | length) of {@code pool} as the key array's element at {@code
     * element}: in it up to 7 bytes, else at {@code cursor} of the array (at {@code array}) with its offset and
     * size in the element; the array's next cursor.
     */
    private static int string(byte[] bytes, int array, int element, int cursor, byte[] pool, long range) {
        int offset = (int) (range >>> 32);
        int length = (int) range;
        if (length <= MAX_INLINE_STRING) {
            // Flink's AbstractBinaryWriter.writeBytesToFixLenPart
            long inline = 0;
            for (int b = 0; b < length; b++) {
                inline |= (pool[offset + b] & 0xFFL) << (BinaryRowData.LITTLE_ENDIAN ? b * 8 : (6 - b) * 8);
            }
            LONG.set(bytes, element, (long) (length | 0x80) << 56 | inline);
            return cursor;
        }
        System.arraycopy(pool, offset, bytes, array + cursor, length);
        LONG.set(bytes, element, (long) cursor << 32 | length);
        return cursor + wordAligned(length);
    }

    /** {@code BinaryArrayData.calculateHeaderInBytes}: the element count and a null bit per element. */
    private static int header(int elements) {
        return 4 + (elements + 31) / 32 * 4;
    }

    private static int wordAligned(int size) {
        return (size + 7) & ~7;
    }
}
