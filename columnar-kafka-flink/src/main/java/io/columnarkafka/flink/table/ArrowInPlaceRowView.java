package io.columnarkafka.flink.table;

import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.ArrowRowView;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * Rows of an Arrow batch for a reader that keeps nothing it read past the batch: like {@link ArrowRowView}, but a
 * CHAR / VARCHAR read (top level or in a nested ROW) is a {@link BinaryStringData} pointing into the vector's
 * off-heap data buffer instead of a heap copy of the value. What a reader copies (Flink's {@code
 * StringDataSerializer.copy}, which copies the bytes whatever the string's memory) it then copies once, not
 * twice.
 *
 * <p>A nested ROW of flat fields only (numbers, booleans, CHAR / VARCHAR, DATE, TIME, TIMESTAMP) reads as a
 * {@link BinaryRowData} written by Flink's own {@link BinaryRowWriter} from the vectors, with no boxing: the bytes
 * Flink's {@code RowDataSerializer.toBinaryRow} makes of the same row, and a row Flink's serializer copies with
 * one array copy instead of field by field.
 *
 * <p>The reader this is for is Flink's generated watermark code, which deep-copies the nested rows it reads
 * (the whole {@code bid} row, its ~100-byte {@code extra} too, for a {@code bid.dateTime}) and returns a
 * {@code long}. Everything else reads as {@link ArrowRowView} reads it. A string read from this view, unlike the
 * other view's, is valid only while the batch is open, and a nested binary row only until the same column is
 * read again (one reused row per column): a reader that keeps one must copy it.
 *
 * <p>{@link #binaryRow} writes a whole row the same way, every field (those that are not flat through Flink's own
 * {@code BinaryWriter.write} on this view's values): the Arrow-to-rows edge's rows ({@link EdgeRows#BINARY}).
 */
public final class ArrowInPlaceRowView {
    private static final MemorySegment[] NO_BYTES = {MemorySegmentFactory.wrap(new byte[0])};

    private final RowType rowType;
    private final InPlaceRow row = new InPlaceRow();
    /**
     * The whole-row writer, made once per view (Flink's serializers for the fields that are not flat are costly
     * to make) and pointed at a bound batch's columns only when {@link #binaryRow} first reads it.
     */
    private final BinaryRows binaryRows;
    private boolean binaryRowsBound;
    private int rowCount;

    /** A view of every column of batches of {@code rowType}. */
    public ArrowInPlaceRowView(RowType rowType) {
        ArrowLayout.schema(rowType); // fails now for a type without a layout
        this.rowType = rowType;
        this.binaryRows = BinaryRows.anyFields(rowType);
    }

    /**
     * Points the view at {@code batch}.
     *
     * @throws io.columnarkafka.format.BatchLayoutException if the batch does not carry the row type
     */
    public void bind(VectorSchemaRoot batch) {
        ArrowLayout.check(rowType, batch);
        row.columns = Columns.of(rowType, batch.getFieldVectors());
        row.values.setVectorizedColumnBatch(row.columns.values);
        binaryRowsBound = false;
        rowCount = batch.getRowCount();
    }

    /** Rows of the bound batch. */
    public int rowCount() {
        return rowCount;
    }

    /** The reused row positioned on row {@code index} of the bound batch, with kind INSERT. */
    public RowData row(int index) {
        if (index < 0 || index >= rowCount) {
            throw new IndexOutOfBoundsException("row " + index + " of " + rowCount);
        }
        row.at(index);
        row.setRowKind(RowKind.INSERT);
        return row;
    }

    /**
     * Row {@code index} of the bound batch, kind INSERT, as the {@link BinaryRowData} Flink's {@code
     * RowDataSerializer.toBinaryRow} makes of {@link #row}: the same {@link BinaryRowWriter} calls, field by field,
     * with flat values read from the vectors unboxed and strings copied from the data buffer once. One reused
     * instance, overwritten by the next call: a reader that keeps it must copy it.
     */
    public BinaryRowData binaryRow(int index) {
        if (index < 0 || index >= rowCount) {
            throw new IndexOutOfBoundsException("row " + index + " of " + rowCount);
        }
        if (!binaryRowsBound) {
            binaryRows.bind(row.columns, row);
            binaryRowsBound = true;
        }
        row.at(index);
        row.setRowKind(RowKind.INSERT);
        return binaryRows.at(index);
    }

    /** The vectors of one row type (a batch's, or a nested ROW's children), read per column. */
    private static final class Columns {
        final VectorizedColumnBatch values;
        /** The in-place reader of each CHAR / VARCHAR column of 32-bit offsets; null for the other columns. */
        final Utf8Column[] strings;
        /** The columns of each nested ROW column; null for the other columns. */
        final Columns[] rows;
        /** Each nested ROW column of flat fields written as a binary row; null for the other columns. */
        final BinaryRows[] binaryRows;

        private Columns(VectorizedColumnBatch values, Utf8Column[] strings, Columns[] rows, BinaryRows[] binaryRows) {
            this.values = values;
            this.strings = strings;
            this.rows = rows;
            this.binaryRows = binaryRows;
        }

        static Columns of(RowType type, List<? extends ValueVector> vectors) {
            int arity = type.getFieldCount();
            Utf8Column[] strings = new Utf8Column[arity];
            Columns[] rows = new Columns[arity];
            BinaryRows[] binaryRows = new BinaryRows[arity];
            for (int i = 0; i < arity; i++) {
                LogicalType field = type.getTypeAt(i);
                ValueVector vector = vectors.get(i);
                switch (field.getTypeRoot()) {
                    case CHAR, VARCHAR -> {
                        // LargeUtf8 (64-bit offsets) keeps the copying read: Flink's strings index with ints.
                        if (vector instanceof BaseVariableWidthVector utf8) {
                            strings[i] = new Utf8Column(utf8);
                        }
                    }
                    case ROW -> {
                        rows[i] = of((RowType) field, ((StructVector) vector).getChildrenFromFields());
                        binaryRows[i] = BinaryRows.flatFields((RowType) field, rows[i]);
                    }
                    default -> { }
                }
            }
            return new Columns(ArrowRowView.columns(type, vectors), strings, rows, binaryRows);
        }
    }

    /**
     * Rows of a row type written into one reused {@link BinaryRowData} per row read: what Flink's {@code
     * RowDataSerializer.toBinaryRow} does (row kind, then per field the null bit or the value, through the same
     * {@link BinaryRowWriter} calls). Flat values are read from the vectors without boxing them, strings in place;
     * any other field (decimals, binary, nested rows, arrays, maps, ...) goes through Flink's own per-field call,
     * {@link BinaryWriter#write}, with the value the in-place row's getter gives, as {@code toBinaryRow} does.
     */
    private static final class BinaryRows {
        private static final byte BOOLEAN = 0;
        private static final byte TINYINT = 1;
        private static final byte SMALLINT = 2;
        private static final byte INT = 3;
        private static final byte BIGINT = 4;
        private static final byte FLOAT = 5;
        private static final byte DOUBLE = 6;
        private static final byte STRING = 7;
        private static final byte TIMESTAMP = 8;
        private static final byte ANY = 9;

        private final RowType type;
        private final int[] precisions;
        private final ColumnarRowData values = new ColumnarRowData();
        private final BinaryRowData row;
        private final BinaryRowWriter writer;
        /** For {@link #ANY} fields: the type, Flink's getter and serializer, and the row they read. */
        private final LogicalType[] types;
        private final RowData.FieldGetter[] getters;
        private final TypeSerializer<?>[] serializers;
        /** Per bound batch: each field's kind (a string column of 64-bit offsets is {@link #ANY}) and columns. */
        private byte[] kinds;
        private Columns columns;
        private InPlaceRow source;

        /**
         * @param anyFields whether fields that are not flat are written (through Flink's serializers, made here
         *     for every field that may be one) or never met
         */
        private BinaryRows(RowType type, boolean anyFields) {
            int arity = type.getFieldCount();
            this.type = type;
            this.precisions = new int[arity];
            this.types = new LogicalType[arity];
            this.getters = new RowData.FieldGetter[arity];
            this.serializers = new TypeSerializer<?>[arity];
            for (int i = 0; i < arity; i++) {
                LogicalType field = type.getTypeAt(i);
                byte kind = kind(field);
                if (kind == TIMESTAMP) {
                    precisions[i] = LogicalTypeChecks.getPrecision(field);
                } else if (anyFields && (kind == ANY || kind == STRING)) {
                    types[i] = field;
                    getters[i] = RowData.createFieldGetter(field, i);
                    serializers[i] = InternalSerializers.create(field);
                }
            }
            this.row = new BinaryRowData(arity);
            this.writer = new BinaryRowWriter(row);
        }

        /** Null when a field is not flat, or a string column keeps the copying read (LargeUtf8). */
        static BinaryRows flatFields(RowType type, Columns columns) {
            byte[] kinds = kinds(type, columns);
            for (byte kind : kinds) {
                if (kind == ANY) {
                    return null;
                }
            }
            BinaryRows rows = new BinaryRows(type, false);
            rows.bind(kinds, columns, null);
            return rows;
        }

        /** Every field; those that are not flat read through the row each {@link #bind} names. */
        static BinaryRows anyFields(RowType type) {
            return new BinaryRows(type, true);
        }

        /** Points the writer at a batch's {@code columns}; {@code source} is a row over the same columns. */
        void bind(Columns columns, InPlaceRow source) {
            bind(kinds(type, columns), columns, source);
        }

        private void bind(byte[] kinds, Columns columns, InPlaceRow source) {
            this.kinds = kinds;
            this.columns = columns;
            this.source = source;
            values.setVectorizedColumnBatch(columns.values);
        }

        private static byte[] kinds(RowType type, Columns columns) {
            byte[] kinds = new byte[type.getFieldCount()];
            for (int i = 0; i < kinds.length; i++) {
                byte kind = kind(type.getTypeAt(i));
                kinds[i] = kind == STRING && columns.strings[i] == null ? ANY : kind;
            }
            return kinds;
        }

        /** How a field of {@code type} is written when its column is of the usual layout (Utf8 strings). */
        private static byte kind(LogicalType type) {
            return switch (type.getTypeRoot()) {
                case BOOLEAN -> BOOLEAN;
                case TINYINT -> TINYINT;
                case SMALLINT -> SMALLINT;
                case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> INT;
                case BIGINT -> BIGINT;
                case FLOAT -> FLOAT;
                case DOUBLE -> DOUBLE;
                case CHAR, VARCHAR -> STRING;
                case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> TIMESTAMP;
                default -> ANY;
            };
        }

        BinaryRowData at(int rowId) {
            values.setRowId(rowId);
            writer.reset();
            writer.writeRowKind(RowKind.INSERT);
            for (int i = 0; i < kinds.length; i++) {
                if (values.isNullAt(i)) {
                    writer.setNullAt(i);
                    continue;
                }
                switch (kinds[i]) {
                    case BOOLEAN -> writer.writeBoolean(i, values.getBoolean(i));
                    case TINYINT -> writer.writeByte(i, values.getByte(i));
                    case SMALLINT -> writer.writeShort(i, values.getShort(i));
                    case INT -> writer.writeInt(i, values.getInt(i));
                    case BIGINT -> writer.writeLong(i, values.getLong(i));
                    case FLOAT -> writer.writeFloat(i, values.getFloat(i));
                    case DOUBLE -> writer.writeDouble(i, values.getDouble(i));
                    case STRING -> writer.writeString(i, columns.strings[i].at(rowId));
                    case TIMESTAMP -> writer.writeTimestamp(i, values.getTimestamp(i, precisions[i]), precisions[i]);
                    default -> BinaryWriter.write(writer, i, getters[i].getFieldOrNull(source), types[i],
                            serializers[i]);
                }
            }
            writer.complete();
            return row;
        }
    }

    /** A Utf8 vector's values as Flink strings over its data buffer, where they are. */
    private static final class Utf8Column {
        private final ArrowBuf offsets;
        private final MemorySegment[] data;

        Utf8Column(BaseVariableWidthVector vector) {
            this.offsets = vector.getOffsetBuffer();
            ArrowBuf bytes = vector.getDataBuffer();
            this.data = bytes.capacity() == 0 ? NO_BYTES : new MemorySegment[] {
                MemorySegmentFactory.wrapOffHeapMemory(bytes.nioBuffer(0, Math.toIntExact(bytes.capacity())))};
        }

        StringData at(int row) {
            int start = offsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
            int end = offsets.getInt((long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
            return BinaryStringData.fromAddress(data, start, end - start);
        }
    }

    /** One row of {@link Columns}: strings and nested rows in place, every other value from Flink's columnar row. */
    private static final class InPlaceRow implements RowData {
        final ColumnarRowData values = new ColumnarRowData();
        Columns columns;
        private int rowId;

        InPlaceRow() {}

        InPlaceRow(Columns columns, int rowId) {
            this.columns = columns;
            values.setVectorizedColumnBatch(columns.values);
            at(rowId);
        }

        void at(int rowId) {
            this.rowId = rowId;
            values.setRowId(rowId);
        }

        @Override
        public StringData getString(int pos) {
            Utf8Column strings = columns.strings[pos];
            return strings == null ? values.getString(pos) : strings.at(rowId);
        }

        @Override
        public RowData getRow(int pos, int numFields) {
            BinaryRows binary = columns.binaryRows[pos];
            if (binary != null) {
                return binary.at(rowId);
            }
            Columns nested = columns.rows[pos];
            return nested == null ? values.getRow(pos, numFields) : new InPlaceRow(nested, rowId);
        }

        @Override
        public int getArity() {
            return values.getArity();
        }

        @Override
        public RowKind getRowKind() {
            return values.getRowKind();
        }

        @Override
        public void setRowKind(RowKind kind) {
            values.setRowKind(kind);
        }

        @Override
        public boolean isNullAt(int pos) {
            return values.isNullAt(pos);
        }

        @Override
        public boolean getBoolean(int pos) {
            return values.getBoolean(pos);
        }

        @Override
        public byte getByte(int pos) {
            return values.getByte(pos);
        }

        @Override
        public short getShort(int pos) {
            return values.getShort(pos);
        }

        @Override
        public int getInt(int pos) {
            return values.getInt(pos);
        }

        @Override
        public long getLong(int pos) {
            return values.getLong(pos);
        }

        @Override
        public float getFloat(int pos) {
            return values.getFloat(pos);
        }

        @Override
        public double getDouble(int pos) {
            return values.getDouble(pos);
        }

        @Override
        public DecimalData getDecimal(int pos, int precision, int scale) {
            return values.getDecimal(pos, precision, scale);
        }

        @Override
        public TimestampData getTimestamp(int pos, int precision) {
            return values.getTimestamp(pos, precision);
        }

        @Override
        public <T> RawValueData<T> getRawValue(int pos) {
            return values.getRawValue(pos);
        }

        @Override
        public byte[] getBinary(int pos) {
            return values.getBinary(pos);
        }

        @Override
        public ArrayData getArray(int pos) {
            return values.getArray(pos);
        }

        @Override
        public MapData getMap(int pos) {
            return values.getMap(pos);
        }

        @Override
        public Variant getVariant(int pos) {
            return values.getVariant(pos);
        }
    }
}
