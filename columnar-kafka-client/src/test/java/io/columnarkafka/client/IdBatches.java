package io.columnarkafka.client;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;

/** Arrow batches of rows with a unique id, for tests that count records: ids {@code [from, from + n)}. */
final class IdBatches {
    static final String TYPE = "ROW<id BIGINT, name STRING, ts TIMESTAMP(3)>";
    static final RowType ROW_TYPE = RowTypes.parse(TYPE);
    private static final Pattern ID = Pattern.compile("\"id\":(-?\\d+)");

    private IdBatches() {}

    /** A batch of ids {@code [from, from + n)}; names escape, leave ASCII and go beyond the BMP; some are null. */
    static VectorSchemaRoot batch(BufferAllocator allocator, long from, int n) {
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(ROW_TYPE), allocator);
        BigIntVector ids = (BigIntVector) root.getVector(0);
        VarCharVector names = (VarCharVector) root.getVector(1);
        TimeStampMilliVector timestamps = (TimeStampMilliVector) root.getVector(2);
        root.allocateNew();
        for (int i = 0; i < n; i++) {
            long id = from + i;
            ids.setSafe(i, id);
            if (id % 7 == 3) {
                names.setNull(i);
            } else {
                names.setSafe(i, ("bid \"" + id + "\" é \uD83D\uDE00\t").getBytes(StandardCharsets.UTF_8));
            }
            timestamps.setSafe(i, -86_400_000L + id * 1_001L);
        }
        root.setRowCount(n);
        return root;
    }

    /** The id of a JSON value written from these batches. */
    static long idOf(byte[] value) {
        Matcher m = ID.matcher(new String(value, StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalArgumentException("no id in " + new String(value, StandardCharsets.UTF_8));
        }
        return Long.parseLong(m.group(1));
    }
}
