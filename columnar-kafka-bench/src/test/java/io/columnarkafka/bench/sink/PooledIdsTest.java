package io.columnarkafka.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import io.columnarkafka.testkit.nexmark.BidIndex;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

/** Pooled rows carry ids of their own: a duplicated pass and a lost pass can no longer cancel out. */
class PooledIdsTest {
    private static final int POOL = 64;

    @Test
    void everyPooledRowReadsBackAsItself() {
        Set<Long> seen = new HashSet<>();
        for (long row = 0; row < POOL * 50L; row++) {
            long millis = PooledIds.dateTimeMillis(row, POOL) - BidGenerator.BASE_EPOCH_MILLIS;
            assertThat(PooledIds.rowOf(millis, POOL)).as("row %d", row).isEqualTo(row);
            assertThat(seen.add(millis)).as("row %d's dateTime is its own", row).isTrue();
        }
        assertThat(PooledIds.rowOf(-1, POOL)).isEqualTo(-1);
        assertThat(PooledIds.rowOf(POOL, POOL)).as("no pool row has a time of day past the pool").isEqualTo(-1);
    }

    @Test
    void prebuiltValuesEqualFlinksJsonOfTheRowTheyStandFor() throws Exception {
        PooledJson pool = new PooledJson(POOL);
        JsonRowDataSerializationSchema flink = BidJson.flinkSerializer();
        BidJson.open(flink);
        BidGenerator generator = new BidGenerator(RunSpec.SEED);
        // Passes 0..399 reach past month and year ends (2015-07-15 + 399 days).
        for (long row = 0; row < POOL * 400L; row += 7) {
            GenericRowData expected = generator.row(row % POOL);
            expected.setField(5, TimestampData.fromEpochMillis(PooledIds.dateTimeMillis(row, POOL)));
            byte[] value = pool.value(row);
            assertThat(value).as("row %d", row).isEqualTo(flink.serialize(expected));
            assertThat(PooledIds.rowOf(BidIndex.ofJson(value), POOL)).isEqualTo(row);
        }
    }

    @Test
    void valuesAreFreshCopies() throws Exception {
        PooledJson pool = new PooledJson(POOL);
        byte[] first = pool.value(3);
        byte[] again = pool.value(3 + POOL);
        assertThat(first).isNotSameAs(again).isNotEqualTo(again);
    }
}
