package io.columnarkafka.format;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Encodes whole Arrow batches into Kafka record bytes. An encoder is a plan: built once (per task)
 * from a {@link Projection} and format options, it picks a typed writer per column up front and then
 * encodes any number of batches with no per-row decisions and no per-row objects.
 *
 * <p>Not thread-safe: one encoder per task.
 */
public interface BatchEncoder {

    /**
     * Encodes every row of {@code batch}, in row order, into this encoder's reused slab and returns it.
     * The slab is valid until the next call.
     *
     * @throws BatchLayoutException if the batch does not fit the row type; checked before any byte is
     *     written
     * @throws EncodeException if a value cannot be encoded; the slab then holds no record of the batch
     */
    RecordSlab encode(VectorSchemaRoot batch);

    /**
     * Encodes only the selected rows of {@code batch}: record {@code k} of the returned slab is row {@code
     * selected[k]}, for {@code k < count}. Rows not selected are not read, so a value the format would
     * reject there (a null map key under {@code FAIL}, say) fails nothing: the SQL sink selects the rows of
     * an upsert batch that are not tombstones, whose values Flink never serializes. Errors name the batch
     * row, as {@link #encode(VectorSchemaRoot)}'s do.
     *
     * @param selected ascending row indexes of {@code batch}; only the first {@code count} are read
     * @throws BatchLayoutException if the batch does not fit the row type; checked before any byte is
     *     written
     * @throws EncodeException if a selected value cannot be encoded; the slab then holds no record
     */
    RecordSlab encode(VectorSchemaRoot batch, int[] selected, int count);

    /** The projection this encoder was planned for. */
    Projection projection();
}
