package io.columnarkafka.format.raw;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RootPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes Flink's {@code raw} format into Arrow, value for value what Flink 2.2's {@code
 * RawFormatDeserializationSchema} (flink-table-runtime) returns: the record is the one column's value;
 * a null record is a row with a null value (raw, unlike the other formats, does not skip tombstones);
 * a number whose record has the wrong size is rejected with Flink's message. UTF-8 strings keep their
 * bytes as they are (Flink wraps them without decoding); other charsets are decoded and re-encoded as
 * UTF-8, as Flink's {@code new String(bytes, charset)} does.
 */
public final class RawBatchDecoder implements BatchDecoder {
    private final RowType rowType;
    /** The batches' vector trees, built once and reused (see {@link RootPool}). */
    private final RootPool roots;
    private final String name;
    private final Kind kind;
    private final int width;
    private final VarHandle shorts;
    private final VarHandle ints;
    private final VarHandle longs;
    private final Charset charset;

    private enum Kind { BYTES, RECODED_STRING, BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE }

    /**
     * Plans a decoder for {@code rowType}, which must have exactly one field.
     *
     * @throws IllegalArgumentException for several fields, or a type the raw format does not support
     */
    public RawBatchDecoder(RowType rowType, RawFormatOptions options) {
        if (rowType.getFieldCount() != 1) {
            throw new IllegalArgumentException(String.format("The 'raw' format only supports single physical"
                    + " column. However the defined schema contains multiple physical columns: [%s]",
                    String.join(", ", rowType.getFieldNames())));
        }
        this.rowType = rowType;
        this.roots = new RootPool(ArrowLayout.schema(rowType));
        this.name = rowType.getFieldNames().get(0);
        LogicalType type = rowType.getTypeAt(0);
        ArrowLayout.field(name, type);
        this.kind = kind(type, options.charset());
        this.width = width(kind);
        ByteOrder order = options.bigEndian() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        this.shorts = MethodHandles.byteArrayViewVarHandle(short[].class, order);
        this.ints = MethodHandles.byteArrayViewVarHandle(int[].class, order);
        this.longs = MethodHandles.byteArrayViewVarHandle(long[].class, order);
        this.charset = options.charset();
    }

    private static Kind kind(LogicalType type, Charset charset) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return charset.equals(StandardCharsets.UTF_8) ? Kind.BYTES : Kind.RECODED_STRING;
            case BINARY:
            case VARBINARY:
                return Kind.BYTES;
            case BOOLEAN:
                return Kind.BOOLEAN;
            case TINYINT:
                return Kind.TINYINT;
            case SMALLINT:
                return Kind.SMALLINT;
            case INTEGER:
                return Kind.INT;
            case BIGINT:
                return Kind.BIGINT;
            case FLOAT:
                return Kind.FLOAT;
            case DOUBLE:
                return Kind.DOUBLE;
            default:
                throw new IllegalArgumentException(String.format(
                        "The 'raw' format doesn't supports '%s' as column type.", type.asSummaryString()));
        }
    }

    private static int width(Kind kind) {
        switch (kind) {
            case BOOLEAN:
            case TINYINT:
                return 1;
            case SMALLINT:
                return 2;
            case INT:
            case FLOAT:
                return 4;
            case BIGINT:
            case DOUBLE:
                return 8;
            default:
                return -1;
        }
    }

    /** Flink's name of the type in its size error. */
    private static String sizeName(Kind kind) {
        return kind == Kind.INT ? "INT" : kind.name();
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        int count = records.count();
        VectorSchemaRoot root = roots.root(allocator);
        try {
            if (width < 0) {
                decodeVariable(records, (BaseVariableWidthVector) root.getVector(0), count);
            } else {
                decodeFixed(records, root, count);
            }
            root.setRowCount(count);
            return new DecodedBatch(root, null, count);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private void decodeVariable(RecordBytes records, BaseVariableWidthVector vector, int count) {
        if (kind == Kind.BYTES) {
            // Views in, one bulk allocation, one copy per record straight into the data buffer.
            vector.allocateNew(Math.max(1, records.totalBytes()), count);
            for (int i = 0; i < count; i++) {
                int length = records.length(i);
                if (length < 0) {
                    vector.setNull(i);
                } else {
                    vector.set(i, records.array(i), records.offset(i), length);
                }
            }
        } else {
            vector.allocateNew(count);
            for (int i = 0; i < count; i++) {
                int length = records.length(i);
                if (length < 0) {
                    vector.setNull(i);
                } else {
                    String text = new String(records.array(i), records.offset(i), length, charset);
                    vector.setSafe(i, text.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        vector.setValueCount(count);
    }

    private void decodeFixed(RecordBytes records, VectorSchemaRoot root, int count) {
        var vector = root.getVector(0);
        vector.setInitialCapacity(count);
        vector.allocateNew();
        for (int i = 0; i < count; i++) {
            int length = records.length(i);
            if (length < 0) {
                vector.setNull(i);
                continue;
            }
            if (length != width) {
                throw new DecodeException(i, name, String.format(
                        "Size of data received for deserializing %s type is not %s.", sizeName(kind), width));
            }
            byte[] array = records.array(i);
            int at = records.offset(i);
            switch (kind) {
                case BOOLEAN:
                    ((BitVector) vector).set(i, array[at] != 0 ? 1 : 0);
                    break;
                case TINYINT:
                    ((TinyIntVector) vector).set(i, array[at]);
                    break;
                case SMALLINT:
                    ((SmallIntVector) vector).set(i, (short) shorts.get(array, at));
                    break;
                case INT:
                    ((IntVector) vector).set(i, (int) ints.get(array, at));
                    break;
                case BIGINT:
                    ((BigIntVector) vector).set(i, (long) longs.get(array, at));
                    break;
                case FLOAT:
                    ((Float4Vector) vector).set(i, Float.intBitsToFloat((int) ints.get(array, at)));
                    break;
                case DOUBLE:
                    ((Float8Vector) vector).set(i, Double.longBitsToDouble((long) longs.get(array, at)));
                    break;
                default:
                    throw new IllegalStateException("not a fixed-width kind: " + kind);
            }
        }
        vector.setValueCount(count);
    }

    @Override
    public RowType rowType() {
        return rowType;
    }
}
