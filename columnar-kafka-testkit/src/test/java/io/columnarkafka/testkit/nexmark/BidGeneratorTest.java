package io.columnarkafka.testkit.nexmark;

import static io.columnarkafka.testkit.nexmark.BidGenerator.BID_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BidGeneratorTest {
    private final BufferAllocator allocator = new RootAllocator();
    private final VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowLayout.schema(BID_TYPE), allocator);

    @AfterEach
    void closeAndCheckNoLeak() {
        batch.close();
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void arrowBatchHoldsTheSameValuesAsTheRows() {
        BidGenerator generator = new BidGenerator(42);
        long from = 1_000_003;
        generator.fill(batch, from, 5000);

        assertThat(batch.getRowCount()).isEqualTo(5000);
        for (int row = 0; row < 5000; row++) {
            assertRowEquals(batch, row, generator.row(from + row));
        }
    }

    @Test
    void refillingASmallerBatchOverwritesItCompletely() {
        BidGenerator generator = new BidGenerator(7);
        generator.fill(batch, 0, 4000);
        generator.fill(batch, 90_000, 300);

        assertThat(batch.getRowCount()).isEqualTo(300);
        for (int row = 0; row < 300; row++) {
            assertRowEquals(batch, row, generator.row(90_000 + row));
        }
    }

    @Test
    void rowIsAPureFunctionOfSeedAndIndex() {
        BidGenerator one = new BidGenerator(42);
        BidGenerator two = new BidGenerator(42);
        for (long i : new long[] {0, 1, 45, 46, 99_999, 5_000_000_000L}) {
            assertThat(two.row(i)).isEqualTo(one.row(i));
        }
        // Rows do not depend on which batch they were filled in.
        one.fill(batch, 1000, 200);
        for (int row = 100; row < 200; row++) {
            assertRowEquals(batch, row, two.row(1100 + row - 100));
        }
    }

    @Test
    void otherSeedsGiveOtherRows() {
        BidGenerator one = new BidGenerator(1);
        BidGenerator two = new BidGenerator(2);
        int differing = 0;
        for (long i = 0; i < 100; i++) {
            if (!one.row(i).equals(two.row(i))) {
                differing++;
            }
        }
        assertThat(differing).isEqualTo(100);
    }

    @Test
    void valuesLookLikeNexmarkBids() {
        BidGenerator generator = new BidGenerator(42);
        Set<String> channels = new HashSet<>();
        int hotChannelBids = 0;
        int rows = 100_000;
        for (long i = 0; i < rows; i++) {
            GenericRowData bid = generator.row(i);
            assertThat(bid.getLong(0)).isGreaterThanOrEqualTo(1000);
            assertThat(bid.getLong(1)).isGreaterThanOrEqualTo(1000);
            assertThat(bid.getLong(2)).isBetween(100L, 100_000_000L);
            String channel = bid.getString(3).toString();
            channels.add(channel);
            if (Set.of("Google", "Facebook", "Baidu", "Apple").contains(channel)) {
                hotChannelBids++;
            }
            assertThat(bid.getString(4).toString())
                    .matches("https://www\\.nexmark\\.com/[a-z]{5}/[a-z]{5}/[a-z]{5}/item\\.htm\\?query=1"
                            + "&channel_id=\\d+");
            assertThat(bid.getTimestamp(5, 3))
                    .isEqualTo(TimestampData.fromEpochMillis(BidGenerator.BASE_EPOCH_MILLIS + i));
            assertThat(bid.getString(6).toString()).matches("[a-z ]{16,40}");
        }
        assertThat(hotChannelBids).isBetween(rows * 98 / 100, rows * 995 / 1000);
        assertThat(channels.size()).isGreaterThan(500);
    }

    private static void assertRowEquals(VectorSchemaRoot batch, int row, GenericRowData expected) {
        String at = "row " + row;
        assertThat(((BigIntVector) batch.getVector("auction")).get(row)).as(at).isEqualTo(expected.getLong(0));
        assertThat(((BigIntVector) batch.getVector("bidder")).get(row)).as(at).isEqualTo(expected.getLong(1));
        assertThat(((BigIntVector) batch.getVector("price")).get(row)).as(at).isEqualTo(expected.getLong(2));
        assertThat(((VarCharVector) batch.getVector("channel")).get(row))
                .as(at).isEqualTo(expected.getString(3).toBytes());
        assertThat(((VarCharVector) batch.getVector("url")).get(row))
                .as(at).isEqualTo(expected.getString(4).toBytes());
        TimestampData dateTime = expected.getTimestamp(5, 3);
        assertThat(dateTime.getNanoOfMillisecond()).as(at).isZero();
        assertThat(((TimeStampMilliVector) batch.getVector("dateTime")).get(row))
                .as(at).isEqualTo(dateTime.getMillisecond());
        assertThat(((VarCharVector) batch.getVector("extra")).get(row))
                .as(at).isEqualTo(expected.getString(6).toBytes());
        for (int column = 0; column < BID_TYPE.getFieldCount(); column++) {
            assertThat(batch.getVector(column).isNull(row)).as(at + " column " + column).isFalse();
        }
    }
}
