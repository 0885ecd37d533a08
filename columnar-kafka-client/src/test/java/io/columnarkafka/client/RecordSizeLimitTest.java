package io.columnarkafka.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.Test;

/**
 * The record size check against kafka-clients' own estimate: {@code AbstractRecords.estimateSizeInBytesUpperBound}
 * with the magic and the compression type {@code KafkaProducer.doSend} passes (kafka-clients 4.2 passes magic v2,
 * {@link RecordBatch#CURRENT_MAGIC_VALUE}, and the configured compression type), and accept or reject as {@code
 * KafkaProducer.ensureValidRecordSize} does: over {@code max.request.size} or over {@code buffer.memory} fails.
 */
class RecordSizeLimitTest {
    private static final CompressionType[] COMPRESSIONS = {
        CompressionType.NONE, CompressionType.GZIP, CompressionType.SNAPPY, CompressionType.LZ4, CompressionType.ZSTD
    };

    /** Lengths at every varint width boundary, null (-1) and empty. */
    private static final int[] LENGTHS = {-1, 0, 1, 63, 64, 65, 8191, 8192, 1_048_575, 1_048_576, 1_048_577};

    private static final List<List<Header>> HEADER_SETS = List.of(
            List.of(),
            List.of(new RecordHeader("trace", "abc".getBytes(StandardCharsets.UTF_8))),
            List.of(new RecordHeader("k", (byte[]) null), new RecordHeader("é-ключ-\uD83D\uDE00", new byte[200])),
            // an unpaired high surrogate at the end: Kafka's estimate counts 4 bytes for it
            List.of(new RecordHeader("lone\uD83D", new byte[64])));

    @Test
    void theUpperBoundIsKafkasEstimateForEveryCompressionTypeKeyValueAndHeaders() {
        int compared = 0;
        for (CompressionType compression : COMPRESSIONS) {
            for (int key : LENGTHS) {
                for (int value : LENGTHS) {
                    for (List<Header> headers : HEADER_SETS) {
                        int kafka = AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE,
                                compression, bytes(key), bytes(value), headers.toArray(new Header[0]));
                        assertThat(RecordSizeLimit.upperBound(key, value, headers))
                                .as("%s key %d value %d headers %s", compression, key, value, headers)
                                .isEqualTo(kafka);
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(COMPRESSIONS.length * LENGTHS.length * LENGTHS.length * HEADER_SETS.size());
    }

    @Test
    void aRecordJustUnderOrAtTheLimitPassesAndOneByteOverFailsAsTheProducerDecides() {
        int limit = 1_048_576;
        RecordSizeLimit sizeLimit = RecordSizeLimit.of(new Properties());
        assertThat(sizeLimit.limit()).isEqualTo(limit);
        assertThat(sizeLimit.property()).isEqualTo("max.request.size");
        for (CompressionType compression : COMPRESSIONS) {
            for (int key : new int[] {-1, 0, 16, 300}) {
                for (List<Header> headers : HEADER_SETS) {
                    Header[] headerArray = headers.toArray(new Header[0]);
                    // the largest value whose record is at the limit, by Kafka's estimate
                    int atLimit = largestValueWithin(limit, key, headerArray, compression);
                    for (int value : new int[] {atLimit - 1, atLimit, atLimit + 1}) {
                        int kafka = AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE,
                                compression, bytes(key), bytes(value), headerArray);
                        boolean producerAccepts = kafka <= limit;
                        assertThat(producerAccepts).isEqualTo(value <= atLimit);
                        assertThat(rejects(sizeLimit, key, value, headers))
                                .as("%s key %d value %d (Kafka's estimate %d) headers %s", compression, key, value,
                                        kafka, headers)
                                .isEqualTo(!producerAccepts);
                    }
                }
            }
        }
    }

    @Test
    void theLimitIsTheSmallerOfMaxRequestSizeAndBufferMemoryParsedAsTheProducerParsesThem() {
        Properties properties = new Properties();
        properties.put("max.request.size", " 2000000 ");
        assertThat(RecordSizeLimit.of(properties).limit()).isEqualTo(2_000_000);
        properties.put("max.request.size", 3000);
        assertThat(RecordSizeLimit.of(properties).limit()).isEqualTo(3000);
        properties.setProperty("buffer.memory", "2500");
        RecordSizeLimit byMemory = RecordSizeLimit.of(properties);
        assertThat(byMemory.limit()).isEqualTo(2500);
        assertThat(byMemory.property()).isEqualTo("buffer.memory");
        properties.setProperty("max.request.size", "many");
        assertThatThrownBy(() -> RecordSizeLimit.of(properties)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("max.request.size");
    }

    @Test
    void aBatchFailsAtItsFirstOversizedRecordNamingItsSizeTheLimitAndTheProperty() {
        Properties properties = new Properties();
        properties.setProperty("max.request.size", "1000");
        RecordSizeLimit limit = RecordSizeLimit.of(properties);
        int[] values = {10, 2000, 5000};
        assertThatThrownBy(() -> limit.check(3, 7010, i -> -1, i -> values[i], null, i -> "topic 't', row " + i))
                .isInstanceOf(OversizedRecordException.class)
                .hasMessageStartingWith("topic 't', row 1: the Kafka record is " + RecordSizeLimit.upperBound(-1, 2000,
                        null) + " bytes as Kafka's producer counts it (key null, value 2000 bytes), more than the"
                        + " producer's limit of 1000 bytes (max.request.size)")
                .hasMessageContaining("Raise the producer property 'max.request.size'");
        // a batch whose records all fit, though its bytes together do not
        limit.check(3, 2700, i -> 5, i -> 895, null, i -> "row " + i);
    }

    @Test
    void recordsWithHeadersAreCheckedWithTheirHeaders() {
        Properties properties = new Properties();
        properties.setProperty("max.request.size", "1000");
        RecordSizeLimit limit = RecordSizeLimit.of(properties);
        List<Header> headers = List.of(new RecordHeader("h", new byte[100]));
        int value = largestValueWithin(1000, -1, headers.toArray(new Header[0]), CompressionType.NONE);
        limit.check(1, value, i -> -1, i -> value, i -> headers, i -> "row " + i);
        assertThatThrownBy(() -> limit.check(1, value + 1, i -> -1, i -> value + 1, i -> headers, i -> "row " + i))
                .isInstanceOf(OversizedRecordException.class)
                .hasMessageContaining("1 headers");
    }

    private static boolean rejects(RecordSizeLimit limit, int key, int value, List<Header> headers) {
        List<List<Header>> perRecord = new ArrayList<>();
        perRecord.add(headers);
        try {
            limit.check(1, Math.max(key, 0) + (long) Math.max(value, 0), i -> key, i -> value,
                    headers.isEmpty() ? null : perRecord::get, i -> "row " + i);
            return false;
        } catch (OversizedRecordException e) {
            return true;
        }
    }

    /** Searched through Kafka's ByteBuffer form of the same estimate, which the byte[] form wraps, without copies. */
    private static int largestValueWithin(int limit, int key, Header[] headers, CompressionType compression) {
        ByteBuffer keyBuffer = key < 0 ? null : ByteBuffer.wrap(ZEROS, 0, key);
        int value = limit;
        while (AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE, compression, keyBuffer,
                ByteBuffer.wrap(ZEROS, 0, value), headers) > limit) {
            value--;
        }
        return value;
    }

    private static final byte[] ZEROS = new byte[1_048_578];
    private static final Map<Integer, byte[]> ARRAYS = new HashMap<>();

    /** A {@code byte[]} of that length (one per length), null for a negative length. */
    private static byte[] bytes(int length) {
        return length < 0 ? null : ARRAYS.computeIfAbsent(length, byte[]::new);
    }
}
