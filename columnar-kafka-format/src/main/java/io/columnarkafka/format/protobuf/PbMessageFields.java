package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.EncodeException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The fields of one message, written in field-number order as protobuf-java's {@code writeTo} writes them
 * whatever the row's column order. A oneof is set once per member in column order by Flink's generated
 * code, so the last non-null member (in column order) is the one written.
 */
final class PbMessageFields {
    private final String path;
    /** Writers by column, for binding. */
    private final PbWriter[] columns;
    /** Column indexes in field-number order. */
    private final int[] byNumber;
    /** Per column: later columns (in row order) of the same oneof, which override it when non-null. */
    private final int[][] overriddenBy;
    /** A required field of the message that no column sets (every record fails), or null. */
    private final String missingRequired;
    /** A required field of the message, which its default instance lacks, or null. */
    private final String anyRequired;

    PbMessageFields(String path, List<PbWriter> columns, int[] byNumber, int[][] overriddenBy,
            String missingRequired, String anyRequired) {
        this.path = path;
        this.columns = columns.toArray(new PbWriter[0]);
        this.byNumber = byNumber;
        this.overriddenBy = overriddenBy;
        this.missingRequired = missingRequired;
        this.anyRequired = anyRequired;
    }

    /**
     * The fast path writing this message as a whole record, or null if it has a oneof or a required
     * field no column sets, or a writer other than a number or a string.
     */
    PbFlatMessage flat() {
        if (missingRequired != null) {
            return null;
        }
        PbWriter[] ordered = new PbWriter[byNumber.length];
        for (int i = 0; i < byNumber.length; i++) {
            if (overriddenBy[byNumber[i]].length > 0) {
                return null;
            }
            ordered[i] = columns[byNumber[i]];
        }
        return PbFlatMessage.of(ordered);
    }

    /** A required field the message's default instance lacks, or null if it has none. */
    String anyRequired() {
        return anyRequired;
    }

    void bind(List<FieldVector> vectors, int count) {
        for (int c = 0; c < columns.length; c++) {
            columns[c].bind(vectors.get(c), count);
        }
    }

    /** Bound to the columns of a batch by their positions. */
    void bindColumns(FieldVector[] vectors, int count) {
        for (int c = 0; c < columns.length; c++) {
            columns[c].bind(vectors[c], count);
        }
    }

    void write(ByteOutput out, int index) {
        if (missingRequired != null) {
            throw new EncodeException(path.isEmpty() ? missingRequired : path, out.row(),
                    "required protobuf field '" + missingRequired + "' has no column, so it is never set");
        }
        for (int c : byNumber) {
            if (!overridden(c, index)) {
                columns[c].writeField(out, index);
            }
        }
    }

    private boolean overridden(int column, int index) {
        for (int later : overriddenBy[column]) {
            if (!columns[later].isNull(index)) {
                return true;
            }
        }
        return false;
    }
}
