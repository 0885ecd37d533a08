package io.columnarkafka.flink.sink;

import io.columnarkafka.format.BatchEncoder;
import org.apache.arrow.vector.VectorSchemaRoot;
import java.io.Serializable;
import org.apache.flink.table.types.logical.RowType;

/**
 * What {@link EncodeFunction} writes for each row of a batch: the batch's row type, the one topic, and the
 * value and key encoders, planned once per task. The DataStream sink's {@link EncodingSpec} and the SQL
 * sink's Arrow-fed path each describe their encoding through it, so both run the same encode function.
 */
public interface BatchEncoding extends Serializable {
    /** The row type every batch must fit (checked per batch against the Arrow layout). */
    RowType rowType();

    /** The topic of every record. */
    String topic();

    /** Names the encoding in the operator name, e.g. the value format. */
    String describe();

    /** A new value encoder. */
    BatchEncoder valueEncoder();

    /** A new key encoder, or null when records have no key. */
    BatchEncoder keyEncoder();

    /**
     * The rows of {@code root} to write among {@code rows}, after the steps the sink runs on each row before it
     * encodes (a SQL sink's NOT NULL enforcer); by default all of them. Throws what such a step throws.
     */
    default SelectedRows rowsToWrite(VectorSchemaRoot root, SelectedRows rows) {
        return rows;
    }
}
