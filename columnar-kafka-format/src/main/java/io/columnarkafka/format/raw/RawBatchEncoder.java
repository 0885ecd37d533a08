package io.columnarkafka.format.raw;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Encodes Arrow batches in Flink's {@code raw} format, byte for byte what Flink 2.2.1's {@code
 * RawFormatSerializationSchema} (flink-table-runtime) writes: the one column's value is the record; a
 * null value is a null record. Strings in {@code raw.charset}, numbers in {@code raw.endianness}.
 */
public final class RawBatchEncoder implements BatchEncoder {
    private final Projection projection;
    private final RawValueWriter writer;
    private final RecordSlab slab = new RecordSlab();
    private final ByteOutput out = new ByteOutput();

    /**
     * Plans an encoder for {@code projection}, which must have exactly one column.
     *
     * @throws IllegalArgumentException for several columns, or a type the raw format does not support
     */
    public RawBatchEncoder(Projection projection, RawFormatOptions options) {
        this.projection = projection;
        if (projection.fieldCount() != 1) {
            throw new IllegalArgumentException(String.format("The 'raw' format only supports single physical"
                    + " column. However the defined schema contains multiple physical columns: [%s]",
                    String.join(", ", projection.outputType().getFieldNames())));
        }
        String name = projection.name(0);
        LogicalType type = projection.type(0);
        ArrowLayout.field(name, type);
        this.writer = writer(name, type, options);
    }

    private static RawValueWriter writer(String name, LogicalType type, RawFormatOptions options) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return options.charset().equals(StandardCharsets.UTF_8)
                        ? new RawValueWriter.Bytes(name) : new RawValueWriter.Recoded(name, options.charset());
            case BINARY:
            case VARBINARY:
                return new RawValueWriter.Bytes(name);
            case BOOLEAN:
                return new RawValueWriter.Fixed(name, 0, options.bigEndian());
            case TINYINT:
                return new RawValueWriter.Fixed(name, 1, options.bigEndian());
            case SMALLINT:
                return new RawValueWriter.Fixed(name, 2, options.bigEndian());
            case INTEGER:
            case FLOAT:
                return new RawValueWriter.Fixed(name, 4, options.bigEndian());
            case BIGINT:
            case DOUBLE:
                return new RawValueWriter.Fixed(name, 8, options.bigEndian());
            default:
                throw new IllegalArgumentException(String.format(
                        "The 'raw' format doesn't supports '%s' as column type.", type.asSummaryString()));
        }
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch) {
        return encode(batch, null, batch.getRowCount());
    }

    /** {@inheritDoc} A null {@code selected} selects rows {@code [0, count)}. */
    @Override
    public RecordSlab encode(VectorSchemaRoot batch, int[] selected, int count) {
        try {
            ArrowLayout.check(projection.batchType(), batch);
            int rows = batch.getRowCount();
            FieldVector vector = batch.getVector(projection.field(0));
            writer.bind(vector, rows);
            slab.reset(count, Math.min(vector.getBufferSize(), Integer.MAX_VALUE));
            out.begin(slab);
            if (selected == null) {
                writer.writeBatch(out, rows);
            } else {
                writer.writeRows(out, selected, count);
            }
            return slab;
        } catch (RuntimeException e) {
            slab.clear();
            throw e;
        }
    }

    @Override
    public Projection projection() {
        return projection;
    }
}
