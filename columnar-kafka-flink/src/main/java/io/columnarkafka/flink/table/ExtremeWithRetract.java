package io.columnarkafka.flink.table;

import static io.columnarkafka.flink.table.BatchKeyColumns.row;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;

/**
 * A MAX or MIN over a changelog in a vectorised local aggregate, as Flink's {@code MaxWithRetractAggFunction} and
 * {@code MinWithRetractAggFunction} compute it on a fresh accumulator per flush: per group, the extreme value, the
 * {@code mapSize} (how many values have a row count above 0), and each value's row count, which Flink keeps in a heap
 * {@code MapView}. The rows are applied one by one, in order, as Flink's methods do:
 * <ul>
 *   <li>accumulate: the value becomes the extreme when {@code mapSize} is 0 or it lies beyond the extreme; its count
 *       goes one up (at 0 it leaves the map, as a count of -1 does when a row comes back); a count of 1 adds one to
 *       {@code mapSize};</li>
 *   <li>retract: its count goes one down; at 0 it leaves the map and {@code mapSize} goes one down; at a {@code
 *       mapSize} of 0 there is no extreme; else, if the value was the extreme, the extreme becomes the greatest
 *       (smallest) value left in the map, whatever its count (Flink's {@code updateMax} reads every key, negative
 *       counts too).</li>
 * </ul>
 * Null values are neither accumulated nor retracted.
 *
 * <p>The map is a {@link DistinctValues} of one count per value (a value at 0 is gone from it), and the extreme is
 * the index of its value there, so the values are compared where they are kept: INT, BIGINT and a compact DECIMAL's
 * unscaled value as longs (all of one scale, as {@code DecimalData.compareTo} compares them), VARCHAR by their UTF-8
 * bytes compared unsigned ({@code BinaryStringData.compareTo}). The table holds, per group, the
 * extreme's index (set while there is one) in the call's first column and {@code mapSize} in the next.
 *
 * <p>A flushed group's accumulator is Flink's structured field: a row of the extreme (null when none), {@code mapSize}
 * and the RAW {@code MapView} (a map of the values to BIGINT counts, {@link DistinctViewBytes}), written with
 * Flink's writer as {@code RowDataSerializer.toBinaryRow} writes the row its converter makes of the accumulator.
 */
final class ExtremeWithRetract {
    /** The table columns a call takes: the extreme's value index, then {@code mapSize}. */
    static final int TABLE_COLUMNS = 2;

    private final boolean max;
    private final AggColumnType type;
    private final DistinctValues values = new DistinctValues(1);
    private final DistinctViewBytes viewBytes;
    private final PooledStrings strings = new PooledStrings();
    private final BinaryRowData accumulator = new BinaryRowData(3);
    private final BinaryRowWriter writer = new BinaryRowWriter(accumulator);

    /** A MAX ({@code max}) or MIN of an INT, BIGINT, compact DECIMAL or VARCHAR argument. */
    ExtremeWithRetract(boolean max, AggColumnType type) {
        if (type == AggColumnType.TIMESTAMP) {
            // Flink's map keys would be whole timestamps, sub-millisecond digits included, which a TIMESTAMP(3) drops
            throw new IllegalArgumentException("a retracting " + (max ? "MAX" : "MIN") + " of a TIMESTAMP");
        }
        this.max = max;
        this.type = type;
        this.viewBytes = new DistinctViewBytes(type);
    }

    /**
     * Applies the batch's selected rows [from, to) whose value is not null and whose filter passes, each with its
     * sign ({@code signs[j]}: +1 accumulates, -1 retracts), to their groups ({@code entries[j]}) in {@code table}'s
     * columns from {@code column}. The argument is {@code argument}'s data (INT, BIGINT) or, for a VARCHAR, the
     * batch's strings read at {@code stringArgument} of {@code batchStrings}.
     */
    void accumulate(GroupTable table, int column, FieldVector argument, BatchKeyColumns batchStrings,
            int stringArgument, FieldVector filter, int[] signs, int[] selection, int[] entries, int from, int to) {
        long[] extremes = table.accValues(column);
        boolean[] hasExtreme = table.accSet(column);
        long[] mapSizes = table.accValues(column + 1);
        ArrowBuf data = argument.getDataBuffer();
        int width = type == AggColumnType.VARCHAR ? 0 : LocalAccumulators.width(type);
        byte[] bytes = stringArgument < 0 ? null : batchStrings.bytes(stringArgument);
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (argument.isNull(row) || !LocalAccumulators.passes(filter, row)) {
                continue;
            }
            int entry = entries[j];
            int index = bytes != null
                    ? values.index(entry, false, bytes, batchStrings.start(stringArgument, j),
                            batchStrings.end(stringArgument, j))
                    : values.index(entry, false, LocalAccumulators.value(data, width, row));
            if (signs[j] > 0) {
                if (mapSizes[entry] == 0 || beyond(index, (int) extremes[entry])) {
                    extremes[entry] = index;
                    hasExtreme[entry] = true;
                }
                if (values.countRow(index, 0, 1) == 1) {
                    mapSizes[entry]++;
                }
            } else if (values.countRow(index, 0, -1) == 0) {
                if (--mapSizes[entry] == 0) {
                    hasExtreme[entry] = false;
                } else if (hasExtreme[entry] && extremes[entry] == index) {
                    // the same index is the same value of the same group: Flink's value.equals(acc.max)
                    int next = extremeLeft(entry);
                    extremes[entry] = next;
                    hasExtreme[entry] = next >= 0;
                    mapSizes[entry] = next >= 0 ? mapSizes[entry] : 0;
                }
            }
        }
    }

    /** The greatest (smallest) value the group's map still holds, -1 when it holds none. */
    private int extremeLeft(int entry) {
        int extreme = -1;
        for (int index = values.first(entry); index >= 0; index = values.next(index)) {
            if (!values.isGone(index) && (extreme < 0 || beyond(index, extreme))) {
                extreme = index;
            }
        }
        return extreme;
    }

    /** Whether value {@code index} is greater (for MAX; smaller for MIN) than value {@code than}. */
    private boolean beyond(int index, int than) {
        int compared;
        if (type == AggColumnType.VARCHAR) {
            byte[] pool = values.pool();
            long a = values.value(index);
            long b = values.value(than);
            int aOffset = (int) (a >>> 32);
            int bOffset = (int) (b >>> 32);
            compared = Arrays.compareUnsigned(pool, aOffset, aOffset + (int) a, pool, bOffset, bOffset + (int) b);
        } else {
            compared = Long.compare(values.value(index), values.value(than));
        }
        return max ? compared > 0 : compared < 0;
    }

    /** Writes field {@code pos} of {@code out}: the group's accumulator, from {@code table}'s columns at {@code column}. */
    void into(GroupTable table, int column, int entry, BinaryRowWriter out, int pos) {
        writer.reset();
        if (!table.accSet(column)[entry]) {
            writer.setNullAt(0);
        } else {
            int index = (int) table.accValues(column)[entry];
            long value = values.value(index);
            switch (type) {
                case INT -> writer.writeInt(0, (int) value);
                // a compact DECIMAL as Flink's writeDecimal puts it: its unscaled long in the field
                case BIGINT, DECIMAL -> writer.writeLong(0, value);
                default -> strings.write(writer, 0, values.pool(), (int) (value >>> 32), (int) value);
            }
        }
        writer.writeLong(1, table.accValues(column + 1)[entry]);
        // a RAW field's bytes, after the fields as Flink's writeRawValue puts the serialized MapView
        writer.writeBinary(2, viewBytes.of(values, entry));
        writer.complete();
        out.writeRow(pos, accumulator, null);
    }

    /** Forgets the flushed groups' values. */
    void clear() {
        values.clear();
    }
}
