package io.columnarkafka.format.avro;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.avro.Schema;

/**
 * Encodes Arrow batches as Flink's {@code avro-confluent} format writes records: the Confluent wire format
 * (magic byte {@code 0}, the schema id as a 4-byte big-endian int, then the Avro binary datum; see
 * https://docs.confluent.io/platform/current/schema-registry/fundamentals/serdes-develop/index.html#wire-format).
 * The datum is what {@link AvroBatchEncoder} writes under the legacy timestamp mapping, which is the mapping
 * Flink's registry format uses.
 *
 * <p>The schema is registered (or looked up) under the subject when the first batch is encoded, not when the
 * encoder is planned, so planning needs no network; the id is then fixed for this encoder.
 */
public final class AvroConfluentBatchEncoder implements BatchEncoder {
    private final AvroBatchEncoder avro;
    private final AvroConfluentFormatOptions options;
    private final SchemaRegistryClient registry;
    private int schemaId = -1;

    public AvroConfluentBatchEncoder(Projection projection, AvroConfluentFormatOptions options) {
        this(projection, options, RegistryRetries.DEFAULT);
    }

    /** An encoder whose registry client retries as {@code retries} says (tests shorten the waits). */
    AvroConfluentBatchEncoder(Projection projection, AvroConfluentFormatOptions options, RegistryRetries retries) {
        this.avro = new AvroBatchEncoder(projection, AvroFormatOptions.defaults());
        this.options = options;
        this.registry = new SchemaRegistryClient(options, retries);
    }

    /** The writer schema registered under the subject. */
    public Schema schema() {
        return avro.schema();
    }

    /** The registry's id of the schema, or -1 before the first batch. */
    public int schemaId() {
        return schemaId;
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch) {
        registerOnce();
        return avro.encode(batch);
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch, int[] selected, int count) {
        registerOnce();
        return avro.encode(batch, selected, count);
    }

    private void registerOnce() {
        if (schemaId < 0) {
            int id = registry.id(options.subject(), avro.schema().toString(), options.autoRegister());
            avro.prefix(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
            schemaId = id;
        }
    }

    @Override
    public Projection projection() {
        return avro.projection();
    }
}
