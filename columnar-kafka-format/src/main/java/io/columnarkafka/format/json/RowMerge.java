package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;

/**
 * What Flink writes for a map key that repeats with ROW values under {@code encode.ignore-null-fields}:
 * each later value is converted into the earlier value's {@code ObjectNode} (Flink's converter reuse),
 * so a field the later value leaves null keeps the earlier value, and fields appear in the order they
 * were first set. A null value resets the node. Only maps with repeated keys come here.
 */
final class RowMerge {
    private RowMerge() {}

    /** Writes the node that results from converting values {@code indices[0..count)} in turn. */
    static void write(ByteOutput out, JsonValueWriter writer, int[] indices, int count) {
        int from = 0;
        for (int k = 0; k < count; k++) {
            if (writer.isNull(indices[k])) {
                from = k + 1;
            }
        }
        if (from == count) {
            JsonFields.writeNull(out);
            return;
        }
        if (!(writer instanceof StructJsonWriter struct)) {
            // Arrays and maps are cleared before refilling; scalars are new nodes: the last one wins.
            writer.write(out, indices[count - 1]);
            return;
        }
        JsonFields fields = struct.fields();
        int fieldCount = fields.size();
        int[] firstSet = new int[fieldCount];
        for (int f = 0; f < fieldCount; f++) {
            firstSet[f] = Integer.MAX_VALUE;
            for (int k = from; k < count; k++) {
                if (!fields.writer(f).isNull(indices[k])) {
                    firstSet[f] = k;
                    break;
                }
            }
        }
        out.writeByte((byte) '{');
        boolean first = true;
        for (int k = from; k < count; k++) {
            for (int f = 0; f < fieldCount; f++) {
                if (firstSet[f] != k) {
                    continue;
                }
                fields.writeName(out, f, first);
                first = false;
                JsonValueWriter fieldWriter = fields.writer(f);
                int[] nonNull = new int[count - k];
                int m = 0;
                for (int e = k; e < count; e++) {
                    if (!fieldWriter.isNull(indices[e])) {
                        nonNull[m++] = indices[e];
                    }
                }
                write(out, fieldWriter, nonNull, m);
            }
        }
        out.writeByte((byte) '}');
    }
}
