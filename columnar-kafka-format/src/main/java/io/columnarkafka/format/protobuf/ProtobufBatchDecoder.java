package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RowPerRecord;
import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes protobuf records of the message {@code message-class-name} names, value for value what Flink
 * 2.2's {@code PbRowDataDeserializationSchema} returns: protobuf-java's {@code parseFrom} (unknown fields
 * skipped, a field sent twice: the last scalar, the merged message, the concatenated repeated field, the
 * last value per map key) and then Flink's generated converter (null or default for unset fields, see
 * {@link PbReaderPlan}; enums by name or number). A record protobuf-java cannot parse, a null record (Flink
 * calls {@code parseFrom(null)}) and an undeclared number of an open enum read as INT fail with the record
 * and field, or yield no row under {@code ignore-parse-errors}.
 *
 * <p>Planned once per message type and row type ({@link PbReaderPlan}); per batch each record's bytes are read
 * straight into the vectors, without a protobuf message or {@code RowData}.
 */
public final class ProtobufBatchDecoder implements BatchDecoder {
    private final RowType rowType;
    /** The batches' Arrow schema, built once (a root per batch is made from it). */
    private final Schema schema;
    private final PbMessageReader message;
    private final boolean ignoreParseErrors;
    private final PbInput in = new PbInput();

    /**
     * Plans a decoder of {@code rowType}.
     *
     * @throws IllegalArgumentException if the message class cannot be loaded, a column names no field of the
     *     message or does not fit its field, or the message holds a shape not read natively (required fields,
     *     groups, editions syntax, maps of closed enums)
     */
    public ProtobufBatchDecoder(RowType rowType, ProtobufDecodeOptions options) {
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            ArrowLayout.field(rowType.getFieldNames().get(i), rowType.getTypeAt(i));
        }
        Descriptor descriptor = options.format().descriptor();
        boolean proto3 = "proto3".equals(descriptor.getFile().toProto().getSyntax());
        this.rowType = rowType;
        this.schema = ArrowLayout.schema(rowType);
        this.message = new PbReaderPlan(options.readDefaultValues(), proto3).message("", descriptor, rowType);
        this.ignoreParseErrors = options.ignoreParseErrors();
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        return RowPerRecord.decode(schema, records, allocator, root -> message.bind(root.getFieldVectors()),
                this::read);
    }

    /** Reads record {@code i} into row {@code row}; false if it yields no row (skipped under ignore-parse-errors). */
    private boolean read(RecordBytes records, int i, int row, VectorSchemaRoot root) {
        if (records.isNull(i)) {
            if (ignoreParseErrors) {
                return false;
            }
            throw new DecodeException(i, null, "a null record: Flink's protobuf deserializer fails on it"
                    + " (parseFrom(null) throws NullPointerException)");
        }
        int offset = records.offset(i);
        in.reset(records.array(i), offset, offset + records.length(i));
        try {
            message.readRecord(in, row);
            return true;
        } catch (PbInput.Malformed e) {
            if (!ignoreParseErrors) {
                throw new DecodeException(i, e.field, e.getMessage(), e);
            }
            for (FieldVector vector : root.getFieldVectors()) {
                clear(vector, row); // the next record rewrites this row
            }
            return false;
        }
    }

    /** Nulls slot {@code index} and what a failed record wrote under it, so no offsets run past it. */
    private static void clear(FieldVector vector, int index) {
        if (vector instanceof StructVector struct) {
            struct.setNull(index);
            for (FieldVector child : struct.getChildrenFromFields()) {
                clear(child, index);
            }
        } else if (vector instanceof ListVector list) {
            list.setNull(index);
        } else {
            vector.setNull(index);
        }
    }

    @Override
    public RowType rowType() {
        return rowType;
    }
}
