package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowByRowBatchEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Encodes Arrow batches in Flink's {@code debezium-json} format, byte for byte what Flink 2.2.1's {@code
 * DebeziumJsonSerializationSchema} writes: {@code {"before":null,"after":{...},"op":"c"}} for INSERT and
 * UPDATE_AFTER, {@code {"before":{...},"after":null,"op":"d"}} for UPDATE_BEFORE and DELETE; with {@code
 * encode.ignore-null-fields} the null side is left out. The row object is written by the JSON encoder's
 * writers with the same options.
 *
 * <p>Row kinds: Arrow batches have none, so every row is an INSERT unless the option {@value
 * #ROW_KIND_COLUMN} names a TINYINT column of the batch holding {@code RowKind.toByteValue()} (0 +I, 1 -U,
 * 2 +U, 3 -D). That column is read from the batch by name and is not written.
 *
 * <p>{@code schema-include} is refused when true, as Flink's serializer refuses it.
 */
public final class DebeziumJsonBatchEncoder extends RowByRowBatchEncoder {
    /** This project's option naming the row-kind column; not a Flink option. */
    public static final String ROW_KIND_COLUMN = "row-kind.column";

    private static final byte[] BEFORE = "{\"before\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] AFTER = "\"after\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CREATE = "\"op\":\"c\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DELETE = "\"op\":\"d\"}".getBytes(StandardCharsets.UTF_8);

    private final JsonFields record;
    private final boolean ignoreNulls;
    private final RowKindColumn rowKinds;
    private final int rowKindField;

    /**
     * Plans an encoder for {@code projection} with {@code debezium-json} options (Flink keys without the
     * prefix, plus {@value #ROW_KIND_COLUMN}).
     *
     * @throws IllegalArgumentException for a bad option, {@code schema-include=true}, a row-kind column
     *     that is missing or not TINYINT, or a type the JSON format does not support
     */
    public DebeziumJsonBatchEncoder(Projection projection, Map<String, String> options) {
        super(projection);
        String kindColumn = options.get(ROW_KIND_COLUMN);
        JsonFormatOptions jsonOptions = jsonOptions(options);
        this.ignoreNulls = jsonOptions.ignoreNullFields();
        JsonWriterPlan plan = new JsonWriterPlan(jsonOptions);
        List<String> names = new ArrayList<>(projection.fieldCount());
        List<JsonValueWriter> writers = new ArrayList<>(projection.fieldCount());
        for (int i = 0; i < projection.fieldCount(); i++) {
            names.add(projection.name(i));
            writers.add(plan.writer(projection.name(i), projection.type(i)));
        }
        this.record = new JsonFields(names, writers, ignoreNulls);
        if (kindColumn == null) {
            rowKinds = null;
            rowKindField = -1;
        } else {
            rowKindField = projection.batchType().getFieldNames().indexOf(kindColumn);
            if (rowKindField < 0 || !projection.batchType().getTypeAt(rowKindField).is(LogicalTypeRoot.TINYINT)) {
                throw new IllegalArgumentException("row-kind column '" + kindColumn + "' must be a TINYINT column"
                        + " of the batch type " + projection.batchType().asSummaryString());
            }
            rowKinds = new RowKindColumn(kindColumn);
        }
    }

    /**
     * The JSON options of Flink's {@code debezium-json} options (Flink keys without the prefix; {@value
     * #ROW_KIND_COLUMN} is skipped): {@code schema-include} must be false, as Flink's serializer requires.
     *
     * @throws IllegalArgumentException for an unknown option or value, or {@code schema-include=true}
     */
    public static JsonFormatOptions jsonOptions(Map<String, String> options) {
        Map<String, String> json = new HashMap<>(options);
        json.remove(ROW_KIND_COLUMN);
        String schemaInclude = json.remove("schema-include");
        if (schemaInclude != null && !schemaInclude.equalsIgnoreCase("false")) {
            if (schemaInclude.equalsIgnoreCase("true")) {
                throw new IllegalArgumentException("Debezium JSON serialization doesn't support"
                        + " 'debezium-json.schema-include' option been set to true.");
            }
            throw new IllegalArgumentException("debezium-json option 'schema-include' must be true or false");
        }
        return JsonFormatOptions.fromMap(json);
    }

    @Override
    protected void bindColumn(int field, FieldVector vector, int rows) {
        record.bind(field, vector, rows);
    }

    @Override
    protected void bindBatch(VectorSchemaRoot batch, int rows) {
        if (rowKinds != null) {
            rowKinds.bind(batch.getVector(rowKindField), rows);
        }
    }

    @Override
    protected long estimateBytes(long arrowBytes, int rows) {
        return arrowBytes * 3 + (long) rows * (record.nameBytes() + 40);
    }

    @Override
    protected void writeRecord(ByteOutput out, int row) {
        byte kind = rowKinds == null ? RowKindColumn.INSERT : rowKinds.kind(row);
        writeEnvelope(out, row, kind == RowKindColumn.INSERT || kind == RowKindColumn.UPDATE_AFTER);
    }

    /** {@code {"before":..,"after":..,"op":..}}, the row on the side its kind puts it. */
    private void writeEnvelope(ByteOutput out, int row, boolean insert) {
        if (insert) {
            if (ignoreNulls) {
                out.writeByte((byte) '{');
            } else {
                out.writeBytes(BEFORE);
                JsonFields.writeNull(out);
                out.writeByte((byte) ',');
            }
            out.writeBytes(AFTER);
            record.write(out, row);
            out.writeByte((byte) ',');
            out.writeBytes(CREATE);
        } else {
            out.writeBytes(BEFORE);
            record.write(out, row);
            out.writeByte((byte) ',');
            if (!ignoreNulls) {
                out.writeBytes(AFTER);
                JsonFields.writeNull(out);
                out.writeByte((byte) ',');
            }
            out.writeBytes(DELETE);
        }
    }
}
