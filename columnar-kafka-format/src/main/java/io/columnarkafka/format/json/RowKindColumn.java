package io.columnarkafka.format.json;

import io.columnarkafka.format.EncodeException;
import io.columnarkafka.format.arrow.BoundColumn;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ValueVector;

/**
 * The row kind of each row, from a TINYINT column holding Flink's {@code RowKind.toByteValue()}: 0
 * INSERT, 1 UPDATE_BEFORE, 2 UPDATE_AFTER, 3 DELETE. Arrow batches carry no row kind of their own.
 */
final class RowKindColumn extends BoundColumn {
    static final byte INSERT = 0;
    static final byte UPDATE_BEFORE = 1;
    static final byte UPDATE_AFTER = 2;
    static final byte DELETE = 3;

    private long data;

    RowKindColumn(String path) {
        super(path);
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        data = address(vector.getDataBuffer(), count, "data");
    }

    /** The row kind byte of {@code row}. @throws EncodeException for a null or unknown kind */
    byte kind(int row) {
        if (isNull(row)) {
            throw new EncodeException(path, row, "row kind is null");
        }
        byte kind = MemoryUtil.getByte(data + row);
        if (kind < INSERT || kind > DELETE) {
            throw new EncodeException(path, row, "row kind " + kind + " is not a RowKind byte value (0 to 3)");
        }
        return kind;
    }
}
