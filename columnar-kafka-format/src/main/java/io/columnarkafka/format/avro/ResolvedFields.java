package io.columnarkafka.format.avro;

import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The fields of one record as the writer wrote them, read into the reader's fields: per writer field, in the
 * writer's order, the reader of the reader field of that name (bound to that field's vector) or a {@link WriterSkip};
 * then the reader's fields the writer lacks set to their default (in a schema Flink derives always null, a nullable
 * field's {@code "default": null}; a NOT NULL field has none, and Avro's resolution fails instead; a given reader
 * schema's defaults may be any value).
 */
final class ResolvedFields {
    private final AvroFieldReader[] writerOrder;
    /** The reader field each writer field is read into, or -1 for a skipped field. */
    private final int[] readerIndex;
    /** The reader fields the writer lacks, and the readers of their defaults. */
    private final int[] defaulted;
    private final AvroFieldReader[] defaults;
    /** The path of the field being read, for errors. */
    String field;

    ResolvedFields(AvroFieldReader[] writerOrder, int[] readerIndex, int[] defaulted, AvroFieldReader[] defaults) {
        this.writerOrder = writerOrder;
        this.readerIndex = readerIndex;
        this.defaulted = defaulted;
        this.defaults = defaults;
    }

    /** The reader's own fields, written in its order (the writer schema is the reader's). */
    static ResolvedFields inOrder(AvroFieldReader[] fields) {
        int[] index = new int[fields.length];
        for (int i = 0; i < index.length; i++) {
            index[i] = i;
        }
        return new ResolvedFields(fields, index, new int[0], new AvroFieldReader[0]);
    }

    /** Binds to the vectors of the reader's fields, in the reader's order. */
    void bind(List<FieldVector> readerVectors) {
        for (int i = 0; i < writerOrder.length; i++) {
            if (readerIndex[i] >= 0) {
                writerOrder[i].bind(readerVectors.get(readerIndex[i]));
            }
        }
        for (int i = 0; i < defaulted.length; i++) {
            defaults[i].bind(readerVectors.get(defaulted[i]));
        }
    }

    void read(AvroInput in, int index) {
        for (AvroFieldReader reader : writerOrder) {
            field = reader.path;
            reader.read(in, index);
        }
        for (AvroFieldReader reader : defaults) {
            field = reader.path;
            reader.read(in, index);
        }
    }

    void skip(AvroInput in) {
        for (AvroFieldReader reader : writerOrder) {
            reader.skip(in);
        }
    }
}
