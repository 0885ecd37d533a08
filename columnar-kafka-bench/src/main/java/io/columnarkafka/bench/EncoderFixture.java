package io.columnarkafka.bench;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.BoxedWrapperRowData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The setup and the two measured loops every encoder benchmark shares: one batch of a {@link Dataset}
 * as the columnar encoder reads it (an Arrow batch) and as Flink's serializer reads it (one {@link
 * RowData} per row), the check that both sides write the same bytes, and the loops themselves.
 *
 * <p>Flink's rows are {@code BinaryRowData}, as rows reach a sink in a Flink job: its strings are views
 * into the row's memory segment, so Flink's serializer decodes or copies them on every call. (A {@code
 * GenericRowData} would hand out the same {@code StringData} objects each time, which cache their
 * decoded {@code String} after the first call and, for {@code raw}, return their own array without a
 * copy: a benchmark that serializes the same rows again and again would then measure a cache.)
 */
final class EncoderFixture implements AutoCloseable {
    private final String label;
    private final BufferAllocator allocator = new RootAllocator();
    /** Rows {@code [0, batchSize)} of the dataset, laid out as {@code ArrowLayout.schema(rowType)}. */
    final VectorSchemaRoot batch;
    /** The same rows as Flink's binary rows, projected as the encoder's projection selects. */
    final RowData[] rows;
    final SerializationSchema<RowData> flink;

    /**
     * @param label names the benchmark case in errors, e.g. {@code format csv}
     * @param projection the columns the encoder writes, of the dataset's row type (possibly re-typed NOT NULL)
     * @param flink Flink's opened serializer of rows of {@code projection.outputType()}
     */
    EncoderFixture(String label, Dataset data, int batchSize, Projection projection,
            SerializationSchema<RowData> flink) {
        this.label = label;
        this.flink = flink;
        this.batch = VectorSchemaRoot.create(ArrowLayout.schema(data.rowType()), allocator);
        data.fill(batch, batchSize);
        RowDataSerializer binary = new RowDataSerializer(projection.outputType());
        RowData.FieldGetter[] getters = new RowData.FieldGetter[projection.fieldCount()];
        RowType rowType = data.rowType();
        for (int f = 0; f < getters.length; f++) {
            getters[f] = RowData.createFieldGetter(rowType.getTypeAt(projection.field(f)), projection.field(f));
        }
        this.rows = new RowData[batchSize];
        for (int i = 0; i < batchSize; i++) {
            RowData row = data.row(i);
            GenericRowData projected = new GenericRowData(getters.length);
            for (int f = 0; f < getters.length; f++) {
                projected.setField(f, getters[f].getFieldOrNull(row));
            }
            rows[i] = binary.toBinaryRow(projected).copy(); // toBinaryRow reuses one row
        }
    }

    /**
     * Refuses a run whose scores would not be per row: {@link EncoderBenchmarks} sets JMH's operations per
     * invocation to the batch size, which JMH's annotation cannot do for a parameter.
     */
    static void requirePerRowScores(BenchmarkParams params, int batchSize) {
        if (params.getOpsPerInvocation() != batchSize) {
            throw new IllegalStateException("operations per invocation is " + params.getOpsPerInvocation()
                    + " but batchSize is " + batchSize + ": run through " + EncoderBenchmarks.class.getName()
                    + " (or pass -opi " + batchSize + ") so that scores are per row");
        }
    }

    /** Refuses to time an encoder whose output differs from Flink's on any row of the batch. */
    void checkSameBytes(BatchEncoder encoder) {
        checkSameBytes(encoder, batch);
    }

    /** Refuses to time an encoder whose output of {@code encoded} differs from Flink's on any row. */
    void checkSameBytes(BatchEncoder encoder, VectorSchemaRoot encoded) {
        RecordSlab slab = encoder.encode(encoded);
        if (slab.recordCount() != rows.length) {
            throw new IllegalStateException(label + ": " + slab.recordCount() + " records for " + rows.length + " rows");
        }
        for (int i = 0; i < rows.length; i++) {
            byte[] expected = flink.serialize(rows[i]);
            byte[] actual = slab.copyRecord(i);
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException(label + " row " + i + ": columnar bytes differ from Flink's"
                        + "\n  flink:    " + show(expected) + "\n  columnar: " + show(actual));
            }
        }
    }

    /** Text if the bytes are UTF-8, else hex. */
    private static String show(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return HexFormat.ofDelimiter(" ").formatHex(bytes);
        }
    }

    /** What a Kafka sink pays: encode the batch, then copy each record out as its own {@code byte[]}. */
    long encodeAndDrain(BatchEncoder encoder, Blackhole blackhole) {
        return encodeAndDrain(encoder, batch, blackhole);
    }

    static long encodeAndDrain(BatchEncoder encoder, VectorSchemaRoot encoded, Blackhole blackhole) {
        RecordSlab slab = encoder.encode(encoded);
        int records = slab.recordCount();
        for (int i = 0; i < records; i++) {
            blackhole.consume(slab.copyRecord(i));
        }
        return slab.size();
    }

    /** {@code input} (the fixture's rows, {@link #rowsAs} some class) as the writer's Arrow batch. */
    static VectorSchemaRoot transpose(RowDataArrowWriter writer, RowData[] input) {
        writer.reset();
        for (RowData row : input) {
            writer.write(row);
        }
        return writer.finish();
    }

    /**
     * The rows as the class a sink gets them in: {@code binary} ({@code BinaryRowData}: after a network
     * exchange), {@code generic} ({@code GenericRowData}: behind a source such as datagen) or {@code boxed}
     * ({@code BoxedWrapperRowData}: behind a chained code-generated Calc). Strings and timestamps are the
     * binary row's own views, as a Calc passing a column through hands them on.
     */
    RowData[] rowsAs(String rowClass, RowType type) {
        if (rowClass.equals("binary")) {
            return rows;
        }
        if (!rowClass.equals("generic") && !rowClass.equals("boxed")) {
            throw new IllegalArgumentException("row class " + rowClass + ": binary, generic or boxed");
        }
        RowData.FieldGetter[] getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int f = 0; f < getters.length; f++) {
            getters[f] = RowData.createFieldGetter(type.getTypeAt(f), f);
        }
        RowData[] out = new RowData[rows.length];
        for (int i = 0; i < rows.length; i++) {
            if (rowClass.equals("generic")) {
                GenericRowData row = new GenericRowData(getters.length);
                for (int f = 0; f < getters.length; f++) {
                    row.setField(f, getters[f].getFieldOrNull(rows[i]));
                }
                out[i] = row;
            } else {
                BoxedWrapperRowData row = new BoxedWrapperRowData(getters.length);
                for (int f = 0; f < getters.length; f++) {
                    Object value = getters[f].getFieldOrNull(rows[i]);
                    if (value == null) {
                        row.setNullAt(f);
                    } else if (value instanceof Long l) {
                        row.setLong(f, l);
                    } else if (value instanceof Integer n) {
                        row.setInt(f, n);
                    } else {
                        row.setNonPrimitiveValue(f, value);
                    }
                }
                out[i] = row;
            }
        }
        return out;
    }

    /** Flink's path: one {@code serialize(row)} per row, each returning a fresh {@code byte[]}; the bytes written. */
    long flinkSerialize(Blackhole blackhole) {
        long bytes = 0;
        for (RowData row : rows) {
            byte[] record = flink.serialize(row);
            bytes += record.length;
            blackhole.consume(record);
        }
        return bytes;
    }

    @Override
    public void close() {
        batch.close();
        allocator.close();
    }
}
