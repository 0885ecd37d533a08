package io.columnarkafka.format.protobuf.parity;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import io.columnarkafka.format.parity.DecoderParityCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Random projections (field subsets in random order, nested likewise, enums by name or number) of every test
 * message, random rows written by Flink's serializer, then decoded by Flink's {@code
 * PbRowDataDeserializationSchema} and by the columnar decoder under random {@code ignore-parse-errors} and
 * {@code read-default-values}. Some records are sent twice in one (fields repeated: merged as protobuf-java
 * merges), cut short or have a byte changed. A seed replays a failing batch.
 */
class ProtobufDecoderPropertyTest {
    private static final DecoderParityCheck PB = FlinkProtobufOracle.decodeCheck();
    private static final AtomicLong TRIES = new AtomicLong();
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong REJECTED = new AtomicLong();
    private static final AtomicLong SKIPPED = new AtomicLong();

    @Property(tries = 250)
    void randomRecordsDecodeAsFlinkDecodesThem(@ForAll long seed) {
        Random random = new Random(seed);
        Class<?> message = PbRecords.MESSAGES.get(random.nextInt(PbRecords.MESSAGES.size()));
        Descriptor descriptor = PbRecords.descriptor(message);
        PbRows rows = new PbRows(seed);
        RowType type = rows.randomFields(descriptor);
        List<byte[]> written = PbRecords.written(message, type, rows, 1 + random.nextInt(12));
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : written) {
            switch (random.nextInt(8)) {
                case 0:
                    record = PbRecords.concat(record, written.get(random.nextInt(written.size())));
                    break;
                case 1:
                    record = Arrays.copyOf(record, record.length == 0 ? 0 : random.nextInt(record.length));
                    break;
                case 2:
                    if (record.length > 0) {
                        record = record.clone();
                        record[random.nextInt(record.length)] ^= (byte) (1 + random.nextInt(255));
                    }
                    break;
                default:
                    break;
            }
            records.add(record);
        }
        DecoderParityCheck.Result result = PB.assertParity(type,
                PbRecords.options(message, random.nextInt(4) == 0, random.nextBoolean()), records);
        TRIES.incrementAndGet();
        ROWS.addAndGet(result.comparedRows());
        REJECTED.addAndGet(result.rejectedRecords());
        SKIPPED.addAndGet(result.recordsWithoutRows());
    }

    @AfterContainer
    static void comparedEnough() {
        if (TRIES.get() > 0) {
            System.out.printf("protobuf decode property: %d tries, %d rows compared, %d records rejected by both,"
                    + " %d skipped by both%n", TRIES.get(), ROWS.get(), REJECTED.get(), SKIPPED.get());
            assertThat(TRIES.get()).as("tries").isEqualTo(250);
            assertThat(ROWS.get()).as("rows compared").isGreaterThan(1000);
            assertThat(REJECTED.get()).as("records both rejected").isGreaterThan(30);
            assertThat(SKIPPED.get()).as("records both skipped under ignore-parse-errors").isGreaterThan(3);
        }
    }
}
