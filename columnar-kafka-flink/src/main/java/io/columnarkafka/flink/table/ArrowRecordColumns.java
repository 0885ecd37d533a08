package io.columnarkafka.flink.table;

import io.columnarkafka.flink.sink.RecordColumns;
import io.columnarkafka.format.arrow.ArrowRowView;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.common.header.Header;

/**
 * Each record's topic, timestamp and headers read from the batch's columns as Flink's Kafka table sink reads them
 * from a consumed row ({@link TopicRouter}, {@link RecordMetadata}: the same code as the sink fed rows), through a
 * row view of the batch: only for a sink with metadata columns or a topic list or pattern.
 */
final class ArrowRecordColumns implements RecordColumns {
    private final ArrowRowView rows;
    private final TopicRouter topics;
    private final RecordMetadata metadata;

    /** Reads batches of {@code batchType}: the physical columns, then the metadata columns. */
    ArrowRecordColumns(RowType batchType, TopicRouter topics, RecordMetadata metadata) {
        this.rows = new ArrowRowView(batchType);
        this.topics = topics;
        this.metadata = metadata;
    }

    @Override
    public void bind(VectorSchemaRoot batch) {
        rows.bind(batch);
    }

    @Override
    public String topic(int row) {
        return topics.topicOf(rows.row(row));
    }

    @Override
    public Long timestamp(int row) {
        return metadata.hasTimestamp() ? metadata.timestamp(rows.row(row)) : null;
    }

    @Override
    public boolean writesHeaders() {
        return metadata.hasHeaders();
    }

    @Override
    public List<Header> headers(int row) {
        return metadata.hasHeaders() ? metadata.headers(rows.row(row)) : List.of();
    }
}
