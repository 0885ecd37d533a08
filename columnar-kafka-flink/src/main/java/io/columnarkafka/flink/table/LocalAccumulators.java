package io.columnarkafka.flink.table;

import static io.columnarkafka.flink.table.BatchKeyColumns.row;

import io.columnarkafka.format.arrow.RowKindVector;
import io.columnarkafka.format.arrow.WideTimestamps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.types.RowKind;

/**
 * The accumulators of a vectorised local aggregate's calls ({@link LocalAggCall}), kept as columns of its {@link
 * GroupTable} (a call's fields side by side, in Flink's order): a batch's rows accumulated into their groups' entries
 * one call at a time, column by column, as Flink's declarative functions' accumulate expressions would, row after
 * row; and an entry's accumulators written out as Flink's local aggregate emits them.
 *
 * <p>A MAX or MIN of a VARCHAR keeps its group's current value as a range of one byte pool, appended to only when
 * the value changes; the argument column is read once per batch ({@link #read}). The {@code COUNT(DISTINCT col)}
 * calls are accumulated per distinct column, as Flink's {@code DistinctAggCodeGen} does: a row's value is looked up
 * in the group's distinct values ({@link DistinctValues}) with the column's calls whose filters pass, and each of
 * those calls that had not seen the value counts it if it is not null. For an insert-only input Flink maps a value
 * to the bit-set of the calls that saw it; where its distinct accumulator consumes retractions (a HOP window's, whose
 * global phase needs each slice's input count) to a count of the value's rows per call: a Long for one call, a
 * {@code long[]} for several. After every call's fields each distinct column adds one: Flink's heap {@code MapView}
 * of the group's values, in a RAW field, written as its serialized bytes ({@link DistinctViewBytes}). A VARCHAR
 * distinct column is read once per batch too, and its values looked up by their UTF-8 bytes.
 *
 * <p>Over a changelog each row adds with its sign, read once per batch from the row-kind column: +1 for INSERT
 * and UPDATE_AFTER, which Flink's local phase accumulates, -1 for UPDATE_BEFORE and DELETE, which it retracts (the
 * retract expressions of {@code Count1AggFunction}, {@code CountAggFunction}, {@code SumWithRetractAggFunction},
 * {@code Sum0AggFunction} and {@code AvgAggFunction} subtract what the accumulate ones add, in the same wrapping
 * arithmetic; a SUM's first non-null value retracted is {@code 0 - value}); a MAX or MIN there is Flink's
 * retracting one, which counts each value's rows ({@link ExtremeWithRetract}). An insert-only input's signs are all
 * +1.
 *
 * <p>A sum or AVG of a DECIMAL (precision up to 18, so each unscaled value is a long) is kept exact in 128 bits: its
 * low word in the call's first table column, its high word in one more column after the call's others. Flink's
 * accumulator is a {@code DECIMAL(38, scale)}, which its plus would turn null past 38 digits; a group's accumulators
 * between two flushes take fewer than 2^63 rows (a bundle's are at most {@code table.exec.mini-batch.size}, a long; a
 * slice's fewer than a JVM can count) of values below 10^18 in magnitude, whose sum stays below 10^37: no sum reaches
 * that bound, and none wraps 128 bits.
 */
final class LocalAccumulators {
    private final LocalAggCall[] calls;
    /** The table column of each call's first accumulator field. */
    private final int[] firstColumn;
    /** The flushed row's field of each call's first accumulator field, after the keys. */
    private final int[] firstField;
    /**
     * The table columns the calls take (a DECIMAL sum's high word one more than its fields; a retracting MAX's or
     * MIN's two for its one field).
     */
    private final int columns;
    /** The calls' accumulator fields. */
    private final int fields;
    /** The distinct columns' input columns and types, in the order Flink's distinct accumulators come. */
    private final int[] distinctColumns;
    private final AggColumnType[] distinctTypes;
    /** Per distinct column, its calls, in the order of their bits. */
    private final int[][] distinctCalls;
    /**
     * Per call, the index of its argument among {@link #strings}' columns (a MAX or MIN of VARCHAR), else -1; calls
     * and distinct columns of the same input column share one.
     */
    private final int[] stringArgument;
    /** Per call, its values, row counts and extremes when it is a MAX_RETRACT or MIN_RETRACT, else null. */
    private final ExtremeWithRetract[] extremes;
    /** Per distinct column, its index among {@link #strings}' columns (a VARCHAR one), else -1. */
    private final int[] distinctStringArgument;
    private final BatchKeyColumns strings;
    private final DistinctValues[] distinctValues;
    private final DistinctViewBytes[] distinctBytes;
    /** Flink's {@code consumeRetraction}: the distinct values count their rows per call instead of the calls' bits. */
    private final boolean distinctRowCounts;
    /** Per distinct column, its calls' filter vectors and count columns for the batch at hand (reused). */
    private final FieldVector[][] distinctFilters;
    private final long[][][] distinctCounts;
    /** The MAX and MIN of VARCHAR values, each a range (offset << 32 | length in the call's column) of this pool. */
    private byte[] pool = new byte[4096];
    private int poolSize;
    private final PooledStrings poolStrings = new PooledStrings();
    /** The input's row-kind column over a changelog, else -1. */
    private final int rowKindColumn;
    /** Per selected row of the batch at hand, +1 (accumulated) or -1 (retracted); all +1 for an insert-only input. */
    private int[] signs = new int[0];

    /**
     * The accumulators of {@code calls}; {@code distinctRowCounts} when Flink's distinct accumulators consume
     * retractions (they count each value's rows per call); {@code rowKindColumn} the input's row-kind column over a
     * changelog (then only COUNT(*), COUNT, SUM_RETRACT, $SUM0, AVG, MAX_RETRACT, MIN_RETRACT, and COUNT(DISTINCT)
     * counting rows), else -1.
     */
    LocalAccumulators(LocalAggCall[] calls, boolean distinctRowCounts, int rowKindColumn) {
        this.calls = calls.clone();
        this.distinctRowCounts = distinctRowCounts;
        this.rowKindColumn = rowKindColumn;
        for (LocalAggCall call : calls) {
            boolean retracting = switch (call.function()) {
                case COUNT_STAR, SUM0, AVG, SUM_RETRACT, MAX_RETRACT, MIN_RETRACT -> true;
                case COUNT -> !call.distinct() || distinctRowCounts; // a value's rows counted down
                case SUM, MAX, MIN -> false;
            };
            boolean retractingOnly = call.function() == LocalAggCall.Function.SUM_RETRACT || call.extremeWithRetract();
            if (rowKindColumn >= 0 && !retracting || retractingOnly && rowKindColumn < 0) {
                throw new IllegalArgumentException(call + (rowKindColumn < 0 ? " needs a changelog input"
                        : " over a changelog (Flink's retracting function is not computed on the vectors)"));
            }
        }
        firstColumn = new int[calls.length];
        firstField = new int[calls.length];
        stringArgument = new int[calls.length];
        extremes = new ExtremeWithRetract[calls.length];
        Map<Integer, Integer> distinctIndex = new LinkedHashMap<>();
        // input column -> its index among the string columns read per batch: one read however many calls use it
        Map<Integer, Integer> stringIndex = new LinkedHashMap<>();
        int column = 0;
        int field = 0;
        for (int a = 0; a < calls.length; a++) {
            firstColumn[a] = column;
            firstField[a] = field;
            field += calls[a].function().accumulators();
            if (calls[a].extremeWithRetract()) {
                extremes[a] = new ExtremeWithRetract(calls[a].function() == LocalAggCall.Function.MAX_RETRACT,
                        calls[a].type());
                column += ExtremeWithRetract.TABLE_COLUMNS;
            } else {
                column += calls[a].function().accumulators() + (calls[a].sumsDecimal() ? 1 : 0);
            }
            boolean string = calls[a].type() == AggColumnType.VARCHAR && !calls[a].distinct();
            stringArgument[a] = string ? stringIndex.computeIfAbsent(calls[a].column(), c -> stringIndex.size()) : -1;
            if (calls[a].distinct()) {
                distinctIndex.putIfAbsent(calls[a].column(), distinctIndex.size());
            }
        }
        columns = column;
        fields = field;
        int distincts = distinctIndex.size();
        distinctColumns = new int[distincts];
        distinctTypes = new AggColumnType[distincts];
        distinctCalls = new int[distincts][];
        distinctValues = new DistinctValues[distincts];
        distinctBytes = new DistinctViewBytes[distincts];
        distinctFilters = new FieldVector[distincts][];
        distinctCounts = new long[distincts][][];
        distinctIndex.forEach((input, d) -> {
            distinctColumns[d] = input;
            distinctCalls[d] = IntStream.range(0, calls.length)
                    .filter(a -> calls[a].distinct() && calls[a].column() == input).toArray();
            distinctTypes[d] = calls[distinctCalls[d][0]].type();
            if (distinctCalls[d].length > LocalAggCall.MAX_DISTINCT_CALLS) {
                throw new IllegalArgumentException("COUNT(DISTINCT $" + input + "): " + distinctCalls[d].length
                        + " calls (at most " + LocalAggCall.MAX_DISTINCT_CALLS + ")");
            }
            distinctValues[d] = new DistinctValues(distinctRowCounts ? distinctCalls[d].length : 1);
            distinctBytes[d] = new DistinctViewBytes(distinctTypes[d]);
            distinctFilters[d] = new FieldVector[distinctCalls[d].length];
            distinctCounts[d] = new long[distinctCalls[d].length][];
        });
        distinctStringArgument = new int[distincts];
        for (int d = 0; d < distincts; d++) {
            distinctStringArgument[d] = distinctTypes[d] == AggColumnType.VARCHAR
                    ? stringIndex.computeIfAbsent(distinctColumns[d], c -> stringIndex.size()) : -1;
        }
        AggColumnType[] stringTypes = new AggColumnType[stringIndex.size()];
        Arrays.fill(stringTypes, AggColumnType.VARCHAR);
        strings = new BatchKeyColumns(stringIndex.keySet().stream().mapToInt(Integer::intValue).toArray(),
                stringTypes);
    }

    /** The table columns the accumulators take (the calls' fields, and a DECIMAL sum's high word). */
    int columns() {
        return columns;
    }

    /**
     * The number of accumulator fields a flushed row has after the keys: the calls' fields, then one per distinct
     * column.
     */
    int width() {
        return fields + distinctColumns.length;
    }

    /**
     * Reads the batch's string arguments (of MAX and MIN, and VARCHAR distinct columns) and, over a changelog, its
     * rows' signs, once per batch, before its rows are accumulated.
     *
     * @throws IllegalStateException naming the row-kind column and the row for a null or unknown kind
     */
    void read(VectorSchemaRoot root, int[] selection, int count) {
        strings.read(root, selection, count);
        if (signs.length < count) {
            signs = new int[count];
            Arrays.fill(signs, 1);
        }
        if (rowKindColumn >= 0) {
            TinyIntVector kinds = (TinyIntVector) root.getVector(rowKindColumn);
            for (int j = 0; j < count; j++) {
                // MiniBatchLocalGroupAggFunction: RowDataUtil.isAccumulateMsg (INSERT, UPDATE_AFTER) accumulates
                RowKind kind = RowKindVector.kind(kinds, row(selection, j));
                signs[j] = kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER ? 1 : -1;
            }
        }
    }

    /** Accumulates the batch's selected rows [from, to) into their entries, {@code entries[j]} row j's. */
    void accumulate(GroupTable table, VectorSchemaRoot root, int[] selection, int[] entries, int from, int to) {
        for (int a = 0; a < calls.length; a++) {
            LocalAggCall call = calls[a];
            if (call.distinct()) {
                continue; // with its column's other calls, below
            }
            long[] values = table.accValues(firstColumn[a]);
            FieldVector filter = call.filterColumn() < 0 ? null : root.getVector(call.filterColumn());
            FieldVector argument = call.column() < 0 ? null : root.getVector(call.column());
            if (call.sumsDecimal()) {
                accumulateDecimalSums(call, argument, filter, table, firstColumn[a], selection, entries, from, to);
                continue;
            }
            switch (call.function()) {
                case COUNT_STAR -> {
                    for (int j = from; j < to; j++) {
                        if (passes(filter, row(selection, j))) {
                            values[entries[j]] += signs[j];
                        }
                    }
                }
                case COUNT -> {
                    for (int j = from; j < to; j++) {
                        int row = row(selection, j);
                        if (passes(filter, row) && !argument.isNull(row)) {
                            values[entries[j]] += signs[j];
                        }
                    }
                }
                case SUM0 -> accumulateSums(call, argument, filter, values, null, null, selection, entries, from, to);
                case AVG -> accumulateSums(call, argument, filter, values, null, table.accValues(firstColumn[a] + 1),
                        selection, entries, from, to);
                case SUM_RETRACT -> accumulateSums(call, argument, filter, values, table.accSet(firstColumn[a]),
                        table.accValues(firstColumn[a] + 1), selection, entries, from, to);
                case MAX_RETRACT, MIN_RETRACT -> extremes[a].accumulate(table, firstColumn[a], argument, strings,
                        stringArgument[a], filter, signs, selection, entries, from, to);
                case SUM, MAX, MIN -> {
                    if (stringArgument[a] >= 0) {
                        accumulateStrings(call.function() == LocalAggCall.Function.MAX, stringArgument[a], filter,
                                values, table.accSet(firstColumn[a]), selection, entries, from, to);
                    } else {
                        accumulateValues(call, argument, filter, values, table.accSet(firstColumn[a]), selection,
                                entries, from, to);
                    }
                }
            }
        }
        for (int d = 0; d < distinctColumns.length; d++) {
            accumulateDistinct(d, table, root, selection, entries, from, to);
        }
    }

    /**
     * MAX ({@code max}) or MIN of a VARCHAR: a value replaces the group's when it is greater (smaller) by its UTF-8
     * bytes compared unsigned, as Flink's {@code BinaryStringData.compareTo}; only then is it copied to the pool.
     */
    private void accumulateStrings(boolean max, int argument, FieldVector filter, long[] values, boolean[] set,
            int[] selection, int[] entries, int from, int to) {
        byte[] bytes = strings.bytes(argument);
        for (int j = from; j < to; j++) {
            if (strings.isNull(argument, j) || !passes(filter, row(selection, j))) {
                continue;
            }
            int start = strings.start(argument, j);
            int end = strings.end(argument, j);
            int entry = entries[j];
            if (set[entry]) {
                long range = values[entry];
                int offset = (int) (range >>> 32);
                int compared = Arrays.compareUnsigned(bytes, start, end, pool, offset, offset + (int) range);
                if (max ? compared <= 0 : compared >= 0) {
                    continue;
                }
            }
            int length = end - start;
            if (poolSize + length > pool.length) {
                pool = Arrays.copyOf(pool, Math.max(pool.length * 2, poolSize + length));
            }
            System.arraycopy(bytes, start, pool, poolSize, length);
            values[entry] = (long) poolSize << 32 | length;
            set[entry] = true;
            poolSize += length;
        }
    }

    /**
     * The COUNT(DISTINCT ...) calls of distinct column {@code d}: per row, the calls whose filters pass (none: the
     * value is not kept, as Flink puts no value whose bits did not change, and skips a row that fails every filter
     * when each call has one) set their bits on the group's value, or, counting rows, each add one to its count
     * there; a call whose bit is new, or whose count became 1, counts a non-null value (Flink's inner COUNT's
     * accumulate).
     */
    private void accumulateDistinct(int d, GroupTable table, VectorSchemaRoot root, int[] selection, int[] entries,
            int from, int to) {
        int[] callsOfColumn = distinctCalls[d];
        FieldVector[] filters = distinctFilters[d];
        long[][] counts = distinctCounts[d];
        for (int i = 0; i < callsOfColumn.length; i++) {
            LocalAggCall call = calls[callsOfColumn[i]];
            filters[i] = call.filterColumn() < 0 ? null : root.getVector(call.filterColumn());
            counts[i] = table.accValues(firstColumn[callsOfColumn[i]]);
        }
        FieldVector argument = root.getVector(distinctColumns[d]);
        ArrowBuf data = argument.getDataBuffer();
        int width = distinctTypes[d] == AggColumnType.VARCHAR ? 0 : width(distinctTypes[d]);
        int string = distinctStringArgument[d];
        byte[] bytes = string < 0 ? null : strings.bytes(string);
        DistinctValues seen = distinctValues[d];
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            long passing = 0;
            for (int i = 0; i < filters.length; i++) {
                if (passes(filters[i], row)) {
                    passing |= 1L << i;
                }
            }
            if (passing == 0) {
                continue;
            }
            boolean isNull = argument.isNull(row);
            int entry = entries[j];
            int index = string >= 0
                    ? seen.index(entry, isNull, bytes, strings.start(string, j), strings.end(string, j))
                    : seen.index(entry, isNull, isNull ? 0 : value(data, width, row));
            if (distinctRowCounts) {
                // a count that became 1 counts the value in, one that came back to 0 out (of a changelog's rows)
                int sign = signs[j];
                for (int i = 0; i < filters.length; i++) {
                    if ((passing & (1L << i)) != 0 && seen.countRow(index, i, sign) == (sign > 0 ? 1 : 0) && !isNull) {
                        counts[i][entry] += sign;
                    }
                }
                continue;
            }
            long before = seen.bits(index);
            long fresh = passing & ~before;
            if (fresh == 0) {
                continue;
            }
            seen.setBits(index, before | passing);
            for (int i = 0; !isNull && i < filters.length; i++) {
                if ((fresh & (1L << i)) != 0) {
                    counts[i][entry]++;
                }
            }
        }
    }

    /** True when the row is accumulated: no filter, or a true one (false and null are not). */
    static boolean passes(FieldVector filter, int row) {
        return filter == null || !filter.isNull(row) && BitVectorHelper.get(filter.getDataBuffer(), row) != 0;
    }

    /**
     * The bytes a value of {@code type} takes in its vector's data: an INT's 4, a BIGINT's 8, a DECIMAL's 16 (whose
     * low eight, little-endian, are a compact one's unscaled long).
     */
    static int width(AggColumnType type) {
        return switch (type) {
            case INT -> IntVector.TYPE_WIDTH;
            case BIGINT -> BigIntVector.TYPE_WIDTH;
            case DECIMAL -> DecimalVector.TYPE_WIDTH;
            case VARCHAR -> throw new IllegalArgumentException("a VARCHAR is read as bytes");
            case TIMESTAMP -> throw new IllegalArgumentException("a TIMESTAMP's width is its vector's");
        };
    }

    /**
     * As {@link #width(AggColumnType)}; a TIMESTAMP's is its vector's: Flink's pair of epoch millis and nanos of the
     * milli ({@link WideTimestamps}, the millis first) or Arrow's milliseconds, each value's first eight bytes its
     * epoch millis.
     */
    static int width(AggColumnType type, FieldVector vector) {
        if (type != AggColumnType.TIMESTAMP) {
            return width(type);
        }
        if (WideTimestamps.carries(vector)) {
            return WideTimestamps.BYTE_WIDTH;
        }
        if (vector instanceof TimeStampMilliVector || vector instanceof TimeStampMilliTZVector) {
            return TimeStampVector.TYPE_WIDTH;
        }
        throw new IllegalStateException("a TIMESTAMP of precision up to 3 in a " + vector.getField()
                + " vector, not epoch millis");
    }

    /** Row {@code row}'s INT, BIGINT, or compact DECIMAL's unscaled value, as a long, from values {@code width} apart. */
    static long value(ArrowBuf data, int width, int row) {
        return width == IntVector.TYPE_WIDTH ? data.getInt((long) row * width) : data.getLong((long) row * width);
    }

    private static void accumulateValues(LocalAggCall call, FieldVector argument, FieldVector filter, long[] values,
            boolean[] set, int[] selection, int[] entries, int from, int to) {
        boolean isInt = call.type() == AggColumnType.INT;
        int width = width(call.type(), argument);
        ArrowBuf data = argument.getDataBuffer();
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (argument.isNull(row) || !passes(filter, row)) {
                continue;
            }
            long value = value(data, width, row);
            int entry = entries[j];
            if (!set[entry]) {
                values[entry] = value;
                set[entry] = true;
                continue;
            }
            long acc = values[entry];
            values[entry] = switch (call.function()) {
                // Flink's generated plus on the accumulator's type: int or long arithmetic, wrapping
                case SUM -> isInt ? (int) acc + (int) value : acc + value;
                case MAX -> value > acc ? value : acc;
                case MIN -> value < acc ? value : acc;
                default -> throw new IllegalStateException(call.toString());
            };
        }
    }

    /**
     * The sums of INT and BIGINT arguments' non-null values, each added with its row's sign: $SUM0 ({@code set} and
     * {@code counts} null: from 0 in the argument's type, int arithmetic wrapping an INT's), AVG ({@code counts}: a
     * BIGINT sum from 0, long arithmetic, and its count) or a SUM over a changelog ({@code SumWithRetractAggFunction},
     * {@code set} and {@code counts}: the sum in the argument's type from its first value, or {@code 0 - value} when
     * that is retracted, and its count).
     */
    private void accumulateSums(LocalAggCall call, FieldVector argument, FieldVector filter, long[] sums,
            boolean[] set, long[] counts, int[] selection, int[] entries, int from, int to) {
        boolean isInt = call.type() == AggColumnType.INT;
        boolean intSum = isInt && call.function() != LocalAggCall.Function.AVG;
        int width = width(call.type());
        ArrowBuf data = argument.getDataBuffer();
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (argument.isNull(row) || !passes(filter, row)) {
                continue;
            }
            int entry = entries[j];
            // a new group's sums are 0 (GroupTable.entry), so a SUM's first value is the value, or 0 minus it; a value
            // times -1 is its two's complement negation, so the wrapping subtraction Flink's retract does
            long sum = sums[entry] + signs[j] * value(data, width, row);
            sums[entry] = intSum ? (int) sum : sum;
            if (set != null) {
                set[entry] = true;
            }
            if (counts != null) {
                counts[entry] += signs[j];
            }
        }
    }

    /**
     * A sum ($SUM0 and AVG's from 0, SUM's from its first value, a retracting SUM's from its first value or 0 minus
     * it), and AVG's and a retracting SUM's count, of a DECIMAL argument's unscaled values, each with its row's
     * sign: the low word in column {@code first}, the high word after the call's other columns.
     */
    private void accumulateDecimalSums(LocalAggCall call, FieldVector argument, FieldVector filter, GroupTable table,
            int first, int[] selection, int[] entries, int from, int to) {
        long[] low = table.accValues(first);
        long[] high = table.accValues(first + call.function().accumulators());
        boolean[] set = table.accSet(first);
        long[] counts = call.function().accumulators() > 1 ? table.accValues(first + 1) : null;
        ArrowBuf data = argument.getDataBuffer();
        for (int j = from; j < to; j++) {
            int row = row(selection, j);
            if (argument.isNull(row) || !passes(filter, row)) {
                continue;
            }
            int entry = entries[j];
            // compact: the low eight bytes of Arrow's little-endian 128-bit value are the unscaled long
            long value = signs[j] * data.getLong((long) row * DecimalVector.TYPE_WIDTH);
            long sum = low[entry] + value;
            high[entry] += (value >> 63) + (Long.compareUnsigned(sum, low[entry]) < 0 ? 1 : 0);
            low[entry] = sum;
            set[entry] = true;
            if (counts != null) {
                counts[entry] += signs[j];
            }
        }
    }

    /**
     * Writes fields [offset, offset + width) of {@code out}, the entry's accumulators, as Flink's row holds them (an
     * unset MAX, MIN or SUM null).
     */
    void into(GroupTable table, int entry, BinaryRowWriter out, int offset) {
        for (int a = 0; a < calls.length; a++) {
            LocalAggCall call = calls[a];
            int column = firstColumn[a];
            int pos = offset + firstField[a];
            long value = table.accValues(column)[entry];
            if (call.sumsDecimal()) {
                decimalInto(call, table, column, entry, out, pos);
                continue;
            }
            switch (call.function()) {
                case COUNT_STAR, COUNT -> out.writeLong(pos, value);
                case MAX, MIN, SUM -> {
                    if (!table.accSet(column)[entry]) {
                        out.setNullAt(pos);
                    } else if (stringArgument[a] >= 0) {
                        poolStrings.write(out, pos, pool, (int) (value >>> 32), (int) value);
                    } else {
                        writeValue(out, pos, call.type(), value);
                    }
                }
                case SUM0 -> writeValue(out, pos, call.type(), value);
                case SUM_RETRACT -> {
                    if (table.accSet(column)[entry]) {
                        writeValue(out, pos, call.type(), value);
                    } else {
                        out.setNullAt(pos);
                    }
                    out.writeLong(pos + 1, table.accValues(column + 1)[entry]);
                }
                case AVG -> {
                    out.writeLong(pos, value);
                    out.writeLong(pos + 1, table.accValues(column + 1)[entry]);
                }
                case MAX_RETRACT, MIN_RETRACT -> extremes[a].into(table, column, entry, out, pos);
            }
        }
        for (int d = 0; d < distinctColumns.length; d++) {
            // the bytes of a RAW field are more than 7, so the writer puts them after the fields, as Flink's
            // writeRawValue does the serialized MapView
            out.writeBinary(offset + fields + d, distinctBytes[d].of(distinctValues[d], entry));
        }
    }

    /**
     * A DECIMAL call's fields from field {@code pos}: its sum as Flink's {@code DECIMAL(38, scale)} (null for a SUM
     * that has seen no value; $SUM0's and AVG's start at 0), then AVG's or a retracting SUM's count.
     */
    private static void decimalInto(LocalAggCall call, GroupTable table, int column, int entry, BinaryRowWriter out,
            int pos) {
        boolean nullable = call.function() == LocalAggCall.Function.SUM
                || call.function() == LocalAggCall.Function.SUM_RETRACT;
        if (nullable && !table.accSet(column)[entry]) {
            out.setNullAt(pos);
        } else {
            long low = table.accValues(column)[entry];
            long high = table.accValues(column + call.function().accumulators())[entry];
            BigInteger unscaled = high == low >> 63 ? BigInteger.valueOf(low)
                    : BigInteger.valueOf(high).shiftLeft(Long.SIZE).add(BigInteger.valueOf(low & Long.MAX_VALUE))
                            .add(low < 0 ? BigInteger.ONE.shiftLeft(Long.SIZE - 1) : BigInteger.ZERO);
            out.writeDecimal(pos, DecimalData.fromBigDecimal(new BigDecimal(unscaled, call.scale()),
                    LocalAggCall.DECIMAL_SUM_PRECISION, call.scale()), LocalAggCall.DECIMAL_SUM_PRECISION);
        }
        if (call.function().accumulators() > 1) {
            out.writeLong(pos + 1, table.accValues(column + 1)[entry]);
        }
    }

    /**
     * An INT (as Flink's int field), BIGINT, compact DECIMAL (its unscaled long, as {@code writeDecimal}) or TIMESTAMP
     * of precision up to 3 (its epoch millis, as {@code writeTimestamp} writes a compact one) value.
     */
    private static void writeValue(BinaryRowWriter out, int pos, AggColumnType type, long value) {
        if (type == AggColumnType.INT) {
            out.writeInt(pos, (int) value);
        } else {
            out.writeLong(pos, value);
        }
    }

    /** Forgets the flushed groups' strings and distinct values; the arrays keep their capacity. */
    void clear() {
        poolSize = 0;
        for (DistinctValues values : distinctValues) {
            values.clear();
        }
        for (ExtremeWithRetract extreme : extremes) {
            if (extreme != null) {
                extreme.clear();
            }
        }
    }
}
