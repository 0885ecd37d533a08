package io.columnarkafka.client.decode;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The Kafka record metadata the columnar source can put in columns beside the decoded fields, with the keys,
 * types and values of Flink's Kafka table source ({@code KafkaDynamicSource.ReadableMetadata} in
 * flink-connector-kafka 5.0), every one Flink's source reads: {@code headers} in the entry order of the
 * {@code HashMap} Flink builds per record ({@link HeadersColumn}).
 */
public enum KafkaMetadata {
    /** The record's topic, STRING NOT NULL. */
    TOPIC("topic", VarCharType.STRING_TYPE.copy(false)),
    /** The record's partition, INT NOT NULL. */
    PARTITION("partition", new IntType(false)),
    /** The record's leader epoch, INT (null when the broker gave none). */
    LEADER_EPOCH("leader-epoch", new IntType(true)),
    /** The record's offset, BIGINT NOT NULL. */
    OFFSET("offset", new BigIntType(false)),
    /** The record's timestamp, TIMESTAMP_LTZ(3) NOT NULL (Kafka's -1 for no timestamp included, as Flink). */
    TIMESTAMP("timestamp", new LocalZonedTimestampType(false, 3)),
    /** The record's timestamp type as Kafka names it ({@code CreateTime}, ...), STRING NOT NULL. */
    TIMESTAMP_TYPE("timestamp-type", VarCharType.STRING_TYPE.copy(false)),
    /** The record's headers, MAP&lt;STRING, BYTES&gt; NOT NULL (empty when it has none). */
    HEADERS("headers", new MapType(false, VarCharType.STRING_TYPE, new VarBinaryType(VarBinaryType.MAX_LENGTH)));

    private final String key;
    private final LogicalType type;

    KafkaMetadata(String key, LogicalType type) {
        this.key = key;
        this.type = type;
    }

    /** The metadata key, as in {@code METADATA FROM '<key>'}. */
    public String key() {
        return key;
    }

    /** The type Flink's Kafka source gives the column. */
    public LogicalType type() {
        return type;
    }

    /** The metadata of {@code key}, or empty for a key this source does not read. */
    public static Optional<KafkaMetadata> of(String key) {
        return Arrays.stream(values()).filter(m -> m.key.equals(key)).findFirst();
    }

    /**
     * Fills {@code vector} (laid out for {@link #type()}) with this metadata of the records behind {@code rows}
     * rows, {@code records[row]} being row's record.
     */
    public void fill(FieldVector vector, ConsumerRecord<?, ?>[] records, int rows) {
        vector.allocateNew();
        switch (this) {
            case TOPIC -> {
                VarCharVector out = (VarCharVector) vector;
                byte[] topic = records[0].topic().getBytes(StandardCharsets.UTF_8);
                for (int row = 0; row < rows; row++) {
                    out.setSafe(row, topic);
                }
            }
            case PARTITION -> {
                IntVector out = (IntVector) vector;
                for (int row = 0; row < rows; row++) {
                    out.setSafe(row, records[row].partition());
                }
            }
            case LEADER_EPOCH -> {
                IntVector out = (IntVector) vector;
                for (int row = 0; row < rows; row++) {
                    Optional<Integer> epoch = records[row].leaderEpoch();
                    if (epoch.isPresent()) {
                        out.setSafe(row, epoch.get());
                    } else {
                        out.setNull(row);
                    }
                }
            }
            case OFFSET -> {
                BigIntVector out = (BigIntVector) vector;
                for (int row = 0; row < rows; row++) {
                    out.setSafe(row, records[row].offset());
                }
            }
            case TIMESTAMP -> {
                TimeStampVector out = (TimeStampVector) vector;
                for (int row = 0; row < rows; row++) {
                    out.setSafe(row, records[row].timestamp());
                }
            }
            case TIMESTAMP_TYPE -> {
                VarCharVector out = (VarCharVector) vector;
                for (int row = 0; row < rows; row++) {
                    out.setSafe(row, records[row].timestampType().toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            case HEADERS -> new HeadersColumn().fill((MapVector) vector, records, rows);
            default -> throw new IllegalStateException("no column for metadata " + key);
        }
        vector.setValueCount(rows);
    }
}
