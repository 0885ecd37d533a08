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

    /** The topic of every record, unless {@link #recordColumns} reads one per record. */
    String topic();

    /** Names the encoding in the operator name, e.g. the value format. */
    String describe();

    /** A new value encoder. */
    BatchEncoder valueEncoder();

    /** A new key encoder, or null when records have no key. */
    BatchEncoder keyEncoder();

    /**
     * The columns of {@code root} the encoders read, as a root of its own over the same vectors (not to be closed):
     * by default all of them. A SQL sink's metadata columns follow the ones its encoders read.
     */
    default VectorSchemaRoot encodedColumns(VectorSchemaRoot root) {
        return root;
    }

    /**
     * A new reader of each record's topic, timestamp and headers from the batch's columns, or null when every record
     * goes to {@link #topic} with neither timestamp nor headers.
     */
    default RecordColumns recordColumns() {
        return null;
    }

    /**
     * A new reader of which rows are tombstones (a null value, never encoded), or null when every row's value is
     * encoded.
     */
    default TombstoneRows tombstones() {
        return null;
    }

    /**
     * The rows of {@code root} to write among {@code rows}, after the steps the sink runs on each row before it
     * encodes (a SQL sink's NOT NULL enforcer); by default all of them. Throws what such a step throws.
     */
    default SelectedRows rowsToWrite(VectorSchemaRoot root, SelectedRows rows) {
        return rows;
    }
}
