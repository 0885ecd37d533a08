package io.columnarkafka.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Reads a row's topic, timestamp and headers from the batch's metadata columns, as Flink's Kafka table sink
 * reads its writable metadata: a null timestamp means the producer's time, null headers mean none, and a
 * header entry with a null key or value is skipped. Bound to one batch's vectors at a time.
 */
final class MetadataColumns {
    private final SinkSettings settings;
    private FieldVector topics;
    private FieldVector timestamps;
    private long timestampDivisor;
    private long timestampMultiplier;
    private MapVector headers;
    private byte[] lastTopicBytes;
    private String lastTopic;

    MetadataColumns(SinkSettings settings) {
        this.settings = settings;
    }

    /** Binds the vectors of {@code batch} (already checked against the row type). */
    void bind(VectorSchemaRoot batch) {
        topics = settings.topicColumn < 0 ? null : batch.getVector(settings.topicColumn);
        headers = settings.headersColumn < 0 ? null : (MapVector) batch.getVector(settings.headersColumn);
        timestamps = settings.timestampColumn < 0 ? null : batch.getVector(settings.timestampColumn);
        if (timestamps instanceof TimeStampVector) {
            TimeUnit unit = ((ArrowType.Timestamp) timestamps.getField().getType()).getUnit();
            timestampMultiplier = unit == TimeUnit.SECOND ? 1000 : 1;
            timestampDivisor = switch (unit) {
                case MICROSECOND -> 1_000;
                case NANOSECOND -> 1_000_000;
                default -> 1;
            };
        }
    }

    /** Checks every row's topic and timestamp before anything of the batch is sent. */
    void check(int rows) {
        for (int row = 0; row < rows; row++) {
            if (topics != null) {
                topic(row);
            }
            Long timestamp = timestamp(row);
            if (timestamp != null && timestamp < 0) {
                throw new IllegalArgumentException("row " + row + ": the timestamp column '" + timestamps.getName()
                        + "' holds " + timestamp + " ms, before 1970; Kafka record timestamps cannot be negative");
            }
        }
    }

    /** The row's topic: the configured one, or the topic column's value checked against the allowed topics. */
    String topic(int row) {
        if (topics == null) {
            return settings.topic;
        }
        if (topics.isNull(row)) {
            throw new IllegalArgumentException("row " + row + ": the topic column '"
                    + topics.getName() + "' is null; every record needs a topic");
        }
        byte[] bytes = topics instanceof VarCharVector utf8 ? utf8.get(row)
                : topics.getObject(row).toString().getBytes(StandardCharsets.UTF_8);
        if (lastTopicBytes == null || !java.util.Arrays.equals(bytes, lastTopicBytes)) {
            String topic = new String(bytes, StandardCharsets.UTF_8);
            Set<String> allowed = settings.allowedTopics;
            if (!allowed.isEmpty() && !allowed.contains(topic)) {
                throw new IllegalArgumentException("row " + row + ": topic '" + topic + "' of column '"
                        + topics.getName() + "' is not one of the configured topics " + allowed);
            }
            lastTopicBytes = bytes;
            lastTopic = topic;
        }
        return lastTopic;
    }

    /** Epoch milliseconds, or null for the producer's time. */
    Long timestamp(int row) {
        if (timestamps == null || timestamps.isNull(row)) {
            return null;
        }
        if (timestamps instanceof BigIntVector millis) {
            return millis.get(row);
        }
        long value = ((TimeStampVector) timestamps).get(row);
        return timestampMultiplier == 1 ? Math.floorDiv(value, timestampDivisor) : value * timestampMultiplier;
    }

    /** The row's headers in map order, or null for none. */
    List<Header> headers(int row) {
        if (headers == null || headers.isNull(row)) {
            return null;
        }
        StructVector entries = (StructVector) headers.getDataVector();
        FieldVector keys = (FieldVector) entries.getChildByOrdinal(0);
        VarBinaryVector values = (VarBinaryVector) entries.getChildByOrdinal(1);
        int start = headers.getElementStartIndex(row);
        int end = headers.getElementEndIndex(row);
        List<Header> result = new ArrayList<>(end - start);
        for (int i = start; i < end; i++) {
            if (!keys.isNull(i) && !values.isNull(i)) {
                result.add(new RecordHeader(keys.getObject(i).toString(), values.get(i)));
            }
        }
        return result.isEmpty() ? null : result;
    }

}
