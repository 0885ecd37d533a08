package io.columnarkafka.flink.testing;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Deterministic test rows, identified by a unique {@code id}: row {@code id} is a pure function of the
 * id, so a restarted source regenerates the same rows. The same row is available as Arrow vectors (what
 * the sink encodes) and as Flink {@link RowData} (what Flink's own serializer, the oracle, encodes).
 *
 * <p>The RowDataArrowWriter of the format module is not on this branch yet, so the vectors are filled
 * here directly, column by column, in the Arrow layout of {@link ArrowLayout#schema}.
 */
public final class TestRows {
    public static final String ROW_TYPE_STRING =
            "ROW<id BIGINT NOT NULL, name STRING, price DOUBLE, ok BOOLEAN, ts TIMESTAMP(3)>";
    public static final RowType ROW_TYPE = RowTypes.parse(ROW_TYPE_STRING);

    private static final long EPOCH_MILLIS = 1_700_000_000_000L;
    private static final byte[] ID_PREFIX = "{\"id\":".getBytes(StandardCharsets.US_ASCII);

    private TestRows() {}

    static boolean nameIsNull(long id) {
        return id % 11 == 3;
    }

    static String name(long id) {
        return id % 7 == 0 ? "name " + id + " \"quoted\" \u00fc\n" : "name-" + id;
    }

    static double price(long id) {
        return id * 0.25 + 0.1;
    }

    static boolean tsIsNull(long id) {
        return id % 13 == 5;
    }

    static long tsMillis(long id) {
        return EPOCH_MILLIS + id * 1001;
    }

    /** Rows {@code firstId .. firstId + rows - 1} as Arrow vectors allocated in {@code allocator}. */
    public static VectorSchemaRoot batch(long firstId, int rows, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(ROW_TYPE), allocator);
        try {
            root.allocateNew();
            BigIntVector id = (BigIntVector) root.getVector("id");
            VarCharVector name = (VarCharVector) root.getVector("name");
            Float8Vector price = (Float8Vector) root.getVector("price");
            BitVector ok = (BitVector) root.getVector("ok");
            TimeStampMilliVector ts = (TimeStampMilliVector) root.getVector("ts");
            for (int i = 0; i < rows; i++) {
                long rowId = firstId + i;
                id.setSafe(i, rowId);
                if (nameIsNull(rowId)) {
                    name.setNull(i);
                } else {
                    name.setSafe(i, name(rowId).getBytes(StandardCharsets.UTF_8));
                }
                price.setSafe(i, price(rowId));
                ok.setSafe(i, rowId % 2 == 0 ? 1 : 0);
                if (tsIsNull(rowId)) {
                    ts.setNull(i);
                } else {
                    ts.setSafe(i, tsMillis(rowId));
                }
            }
            root.setRowCount(rows);
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** Row {@code id} as Flink RowData. */
    public static RowData rowData(long id) {
        return GenericRowData.of(
                id,
                nameIsNull(id) ? null : StringData.fromString(name(id)),
                price(id),
                id % 2 == 0,
                tsIsNull(id) ? null : TimestampData.fromEpochMillis(tsMillis(id)));
    }

    /** Flink's own JSON serializer with default options, opened: the oracle for value bytes. */
    public static JsonRowDataSerializationSchema flinkJson(RowType rowType) {
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(
                rowType, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /** The id of a JSON value written for {@link #ROW_TYPE}: the number after the leading {@code {"id":}. */
    public static long idOf(byte[] json) {
        for (int i = 0; i < ID_PREFIX.length; i++) {
            if (json[i] != ID_PREFIX[i]) {
                throw new IllegalArgumentException(
                        "not a test row: " + new String(json, StandardCharsets.UTF_8));
            }
        }
        long id = 0;
        for (int i = ID_PREFIX.length; i < json.length && json[i] >= '0' && json[i] <= '9'; i++) {
            id = id * 10 + (json[i] - '0');
        }
        return id;
    }
}
