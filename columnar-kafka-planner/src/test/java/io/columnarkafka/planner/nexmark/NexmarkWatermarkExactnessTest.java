package io.columnarkafka.planner.nexmark;

import static io.columnarkafka.flink.testing.WatermarkGenerators.context;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.table.ScanWatermarkSeam;
import io.columnarkafka.flink.testing.WatermarkGenerators.Emitted;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.match.NodeDecision;
import io.columnarkafka.planner.match.NodeKind;
import io.columnarkafka.planner.match.ScanWatermark;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.plan.schema.TableSourceTable;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.clock.ManualClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Nexmark table's watermark ({@code dateTime - INTERVAL '4' SECOND} over the CASE of the nested event times) as
 * the planner pushes it into a columnar scan, with Flink as the oracle: Flink's own generated watermark generator
 * (the strategy the planner pushed) fed the rows one at a time with an emission after each, against the scan's
 * strategy fed the same rows as Arrow batches, columnar (the expression evaluated on the vectors) and with the row
 * probe. Random batches of three interleaved splits: null event types, null nested rows and times, ties, rows out of
 * order, batches below the split's watermark, times before 1970 (and in year 1).
 */
class NexmarkWatermarkExactnessTest {
    private static final String WINDOWS = "INSERT INTO counts SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE nexmark,"
            + " DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY window_start, window_end";

    @ParameterizedTest(name = "columnar={0}")
    @ValueSource(booleans = {true, false})
    void eachSplitsWatermarkIsTheLargestFlinksGeneratorEmitsRowByRow(boolean columnar) throws Exception {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(NexmarkRuns.sourceTable("kafka-columnar", "localhost:1", "events", "g", true));
        tEnv.executeSql("CREATE TABLE counts (n BIGINT) WITH ("
                + NexmarkRuns.sinkOptions("kafka-columnar", "localhost:1", "counts", false) + ")");
        String explained = ColumnarSql.explain(tEnv, WINDOWS);
        assertThat(explained).contains("watermark=[columnar]");
        NodeDecision scan = ColumnarSql.lastDecision(tEnv).decisions().stream()
                .filter(d -> d.isColumnar() && d.kind() == NodeKind.SCAN).findFirst().orElseThrow();
        ScanWatermark path = scan.watermark();
        assertThat(path.columnar()).as("the columnar watermark path is admitted: %s", path.explain()).isNotNull();
        DynamicTableSource source = scan.node().getTable().unwrap(TableSourceTable.class).tableSource();

        WatermarkStrategy<RowData> flink = ScanWatermarkSeam.pushed(source);
        WatermarkStrategy<ArrowBatch> ours = ScanWatermarkSeam.arrowWatermarks(source, columnar ? path.columnar() : null);
        RowType type = ScanWatermarkSeam.batchType(source);
        assertThat(type.getFieldNames()).containsExactly("event_type", "person", "auction", "bid");

        TimestampAssigner<ArrowBatch> assigner = ours.createTimestampAssigner(UnregisteredMetricsGroup::new);
        String[] splits = {"a", "b", "c"};
        Map<String, WatermarkGenerator<ArrowBatch>> oursBySplit = new HashMap<>();
        Map<String, Emitted> oursOut = new HashMap<>();
        Map<String, WatermarkGenerator<RowData>> oracle = new HashMap<>();
        Map<String, Emitted> oracleOut = new HashMap<>();
        for (String split : splits) {
            oursBySplit.put(split, ours.createWatermarkGenerator(context(new ManualClock())));
            oursOut.put(split, new Emitted());
            oracle.put(split, flink.createWatermarkGenerator(context(new ManualClock())));
            oracleOut.put(split, new Emitted());
        }
        Random random = new Random(20261203);
        long base = -3_000_000; // 50 minutes before 1970: the run crosses the epoch
        int raised = 0;
        int unmoved = 0;
        try (BufferAllocator allocator = ArrowMemory.newChild("watermark-exactness", 64L << 20)) {
            for (int b = 0; b < 1500; b++) {
                String split = splits[random.nextInt(splits.length)];
                base += random.nextInt(7000) - 2000;
                List<RowData> rows = new ArrayList<>();
                int count = 1 + random.nextInt(12);
                for (int i = 0; i < count; i++) {
                    rows.add((RowData) value(type, random, base));
                }
                for (RowData row : rows) {
                    oracle.get(split).onEvent(row, 0L, oracleOut.get(split));
                    oracle.get(split).onPeriodicEmit(oracleOut.get(split));
                }
                long before = oursOut.get(split).largest();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator);
                for (RowData row : rows) {
                    writer.write(row);
                }
                ArrowBatch batch = ArrowBatch.fromSplit(writer.finish(), split); // closing the batch frees the root
                long timestamp = assigner.extractTimestamp(batch, 7L);
                batch.close(); // as a chained consumer frees it before the split's generator runs
                oursBySplit.get(split).onEvent(batch, timestamp, oursOut.get(split));
                oursBySplit.get(split).onPeriodicEmit(oursOut.get(split));
                assertThat(timestamp).as("the record timestamp").isEqualTo(7L);
                assertThat(oursOut.get(split).largest()).as("split %s after batch %d", split, b)
                        .isEqualTo(oracleOut.get(split).largest());
                if (oursOut.get(split).largest() > before) {
                    raised++;
                } else {
                    unmoved++;
                }
            }
        }
        assertThat(ArrowMemory.allocatedBytes()).isZero();
        assertThat(raised).as("batches that raised their split's watermark").isGreaterThan(300);
        assertThat(unmoved).as("batches that moved nothing").isGreaterThan(300);
    }

    /**
     * A random value of {@code type}: a tenth null where nullable; event types 0 to 3 (3 takes the CASE's ELSE);
     * times around {@code base} in quarter seconds (ties, out of order), one in fifty in year 1.
     */
    private static Object value(LogicalType type, Random random, long base) {
        if (type.isNullable() && random.nextInt(10) == 0) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case INTEGER:
                return random.nextInt(4);
            case BIGINT:
                return (long) random.nextInt(1000);
            case VARCHAR:
                return StringData.fromString("s" + random.nextInt(100));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return TimestampData.fromEpochMillis(random.nextInt(50) == 0 ? -62_135_596_800_000L + random.nextInt(1000)
                        : base + (random.nextInt(41) - 20) * 250L);
            case ROW:
                List<LogicalType> fields = type.getChildren();
                GenericRowData row = new GenericRowData(fields.size());
                for (int i = 0; i < fields.size(); i++) {
                    row.setField(i, value(fields.get(i), random, base));
                }
                return row;
            default:
                throw new IllegalArgumentException("no random values of " + type);
        }
    }
}
