package io.columnarkafka.format.json;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.BoundColumn;

/**
 * Writes the values of one Arrow vector as JSON: a {@link BoundColumn} (bound once per batch, unchecked
 * reads per value) that spells its values the way Flink's JSON format does.
 *
 * <p>Scalar writers are {@link FlatJsonWriter}s, whose values have a size bound known once the batch is
 * bound; nested writers (ARRAY, MAP, ROW) are not, and make room as they go.
 */
abstract class JsonValueWriter extends BoundColumn {

    JsonValueWriter(String path) {
        super(path);
    }

    /** Writes the non-null value at {@code index}, making its own room in {@code out}. */
    abstract void write(ByteOutput out, int index);

    /** Writes the value at {@code index}, or {@code null}. */
    final void writeNullable(ByteOutput out, int index) {
        if (isNull(index)) {
            JsonFields.writeNull(out);
        } else {
            write(out, index);
        }
    }
}
