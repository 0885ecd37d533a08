package io.columnarkafka.format.avro;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RowPerRecord;
import io.columnarkafka.format.arrow.ArrowLayout;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * Decodes Avro binary records written with Flink's schema of the row type ({@link AvroSchemas}), value for
 * value what Flink 2.2.1's {@code AvroRowDataDeserializationSchema} returns: a null record gives no row;
 * a record Avro cannot read (cut short, an over-long varint, a negative length, a union branch other
 * than 0 or 1) fails with the record and the field being read. A nullable row type reads the union
 * branch before each record, as Flink's schema then demands; its null branch fails, as Flink's converter
 * does. Bytes after the record are ignored; Flink's deserializer, whose buffered Avro decoder outlives
 * the record, would read them as the start of the next record: the one known difference.
 *
 * <p>Planned once (a reader per field and nested type); per batch each value goes straight from the
 * record bytes into its vector.
 */
public final class AvroBatchDecoder implements BatchDecoder {
    private final RowType rowType;
    /** The batches' Arrow schema, built once (a root per batch is made from it). */
    private final Schema schema;
    private final boolean nullableRow;
    private final AvroFieldReader[] fields;
    private final AvroInput in = new AvroInput();

    /**
     * Plans a decoder of {@code rowType}.
     *
     * @throws IllegalArgumentException or {@link UnsupportedOperationException} for a type Flink's Avro
     *     format refuses
     */
    public AvroBatchDecoder(RowType rowType, AvroFormatOptions options) {
        AvroSchemas.derive(rowType, options.legacyTimestampMapping());
        this.rowType = rowType;
        this.schema = ArrowLayout.schema(rowType);
        this.nullableRow = rowType.isNullable();
        this.fields = AvroReaderPlan.fields("", rowType);
    }

    @Override
    public DecodedBatch decode(RecordBytes records, BufferAllocator allocator) {
        return RowPerRecord.decode(schema, records, allocator, this::bind, this::readRecord);
    }

    private void bind(VectorSchemaRoot root) {
        for (int f = 0; f < fields.length; f++) {
            fields[f].bind(root.getVector(f));
        }
    }

    /** Reads record {@code i} into row {@code row}; a null record gives none. */
    private boolean readRecord(RecordBytes records, int i, int row, VectorSchemaRoot root) {
        if (records.isNull(i)) {
            return false;
        }
        in.reset(records.array(i), records.offset(i), records.length(i));
        String field = null;
        try {
            if (nullableRow) {
                int branch = in.readInt();
                if (branch == 0) { // Flink's row converter fails on a null record (NullPointerException)
                    throw new AvroInput.Malformed("the record is the null branch of the nullable row type");
                }
                if (branch != 1) {
                    throw new AvroInput.Malformed("union branch " + branch + " of a 2-branch union");
                }
            }
            for (AvroFieldReader reader : fields) {
                field = reader.path;
                reader.read(in, row);
            }
            return true;
        } catch (AvroInput.Malformed | NumberFormatException e) {
            throw new DecodeException(i, field, e.getMessage(), e);
        }
    }

    @Override
    public RowType rowType() {
        return rowType;
    }
}
