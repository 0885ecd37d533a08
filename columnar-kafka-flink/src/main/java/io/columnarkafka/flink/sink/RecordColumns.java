package io.columnarkafka.flink.sink;

import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.common.header.Header;

/**
 * The topic, timestamp and headers of each record where columns of the batch give them (a SQL sink's metadata
 * columns, or a topic list its rows choose from). Made once per task; bound to each batch before its rows are read.
 */
public interface RecordColumns {
    /** Points the reads at {@code batch}, whose rows are the ones written. */
    void bind(VectorSchemaRoot batch);

    /** The topic of row {@code row}; throws naming why where the row's topic is not one the sink may write. */
    String topic(int row);

    /** The timestamp of row {@code row} in epoch millis, or null for the producer's time. */
    Long timestamp(int row);

    /** Whether any record may have headers. */
    boolean writesHeaders();

    /** The headers of row {@code row}, in order (empty for none). */
    List<Header> headers(int row);
}
