package io.columnarkafka.format.json;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Placeholder until the JSON encoder lands. */
public final class JsonBatchEncoder implements BatchEncoder {
    private final Projection projection;
    private final JsonFormatOptions options;

    public JsonBatchEncoder(Projection projection, JsonFormatOptions options) {
        this.projection = projection;
        this.options = options;
    }

    @Override
    public RecordSlab encode(VectorSchemaRoot batch) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public Projection projection() {
        return projection;
    }
}
