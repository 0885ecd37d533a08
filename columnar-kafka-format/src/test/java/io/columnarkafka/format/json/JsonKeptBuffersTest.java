package io.columnarkafka.format.json;

import static io.columnarkafka.format.json.JsonBatchDecoderTest.bytes;
import static io.columnarkafka.format.json.JsonBatchDecoderTest.decode;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/**
 * A json decoder given back its batches' roots builds each next batch in the same buffers ({@code RecycledRoot}):
 * whatever the batch before held (more rows, values where this one has nulls, long strings where this one has empty
 * ones, longer lists and maps), every batch holds Flink's rows and the very bytes a decoder that never reuses
 * anything writes; a buffer a consumer kept is never written again; a tree far larger than recent batches is
 * released; the allocator closes at zero.
 */
class JsonKeptBuffersTest {
    private static final RowType TYPE = (RowType) LogicalTypeParser.parse("ROW<id BIGINT, ok BOOLEAN, price"
            + " DECIMAL(10, 2), ts TIMESTAMP(3), name STRING, tags ARRAY<STRING>, counts MAP<STRING, INT>,"
            + " r ROW<x INT, s STRING, l ARRAY<BIGINT>>>", JsonKeptBuffersTest.class.getClassLoader());

    @Test
    void batchesOfEveryShapeInSequenceHoldFlinksRowsAndAFreshDecodesBytes() {
        List<String[]> batches = List.of(full(0, 300), nullsFirst(6), withNulls(3), new String[0], emptyValues(7), nullsFirst(5),
                full(300, 40), withNulls(200), emptyValues(1), full(400, 2));
        int compared = 0;
        try (RootAllocator allocator = new RootAllocator()) {
            BatchDecoder decoder = Formats.decoder("json", TYPE, Map.of());
            VectorSchemaRoot tree = null;
            long firstIds = 0;
            for (String[] records : batches) {
                DecodedBatch batch = decode(decoder, allocator, records);
                long ids = ((BigIntVector) batch.root().getVector("id")).getDataBufferAddress();
                if (tree == null) {
                    tree = batch.root();
                    firstIds = ids;
                } else {
                    assertThat(batch.root()).as("the tree given back").isSameAs(tree);
                }
                if (records == batches.get(1)) {
                    assertThat(ids).as("the second batch is written in the first one's buffers").isEqualTo(firstIds);
                }
                compared += assertFlinksRows(batch, records);
                assertSameBytesAsAFreshDecode(batch.root(), records);
                decoder.recycle(batch.takeRoot());
            }
            decoder.releaseRecycled();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        assertThat(compared).as("rows compared with Flink's").isEqualTo(564);
    }

    /**
     * A consumer that kept a column of a batch (a calc shares one by {@code splitAndTransfer}, in the decoder's
     * allocator, which counts a reference more, or its own, which takes the memory's accounting) still reads that
     * batch's values after the decoder has built the next batches.
     */
    @Test
    void aBufferAConsumerKeptIsNeverWrittenAgain() {
        try (RootAllocator allocator = new RootAllocator();
                BufferAllocator consumer = allocator.newChildAllocator("consumer", 0, Long.MAX_VALUE)) {
            BatchDecoder decoder = Formats.decoder("json", TYPE, Map.of());
            // a fixed-width column alone, then every column, into each allocator: one shared buffer is enough
            for (int share = 0; share < 4; share++) {
                BufferAllocator sharedInto = share % 2 == 0 ? allocator : consumer;
                boolean idOnly = share < 2;
                String[] first = full(0, 50);
                DecodedBatch batch = decode(decoder, allocator, first);
                List<FieldVector> kept = new ArrayList<>();
                List<String> keptValues = new ArrayList<>();
                for (FieldVector column : idOnly ? List.of(batch.root().getVector("id"))
                        : batch.root().getFieldVectors()) {
                    TransferPair pair = column.getTransferPair(column.getField().getName(), sharedInto);
                    pair.splitAndTransfer(0, column.getValueCount());
                    kept.add((FieldVector) pair.getTo());
                    keptValues.add(column.getField().getName() + "=" + contents(column));
                }
                decoder.recycle(batch.takeRoot());
                for (String[] records : List.of(withNulls(50), emptyValues(50), full(1000, 50))) {
                    DecodedBatch next = decode(decoder, allocator, records);
                    assertFlinksRows(next, records);
                    decoder.recycle(next.takeRoot());
                }
                List<String> seen = new ArrayList<>();
                for (FieldVector column : kept) {
                    seen.add(column.getField().getName() + "=" + contents(column));
                    column.close();
                }
                assertThat(seen).as("the kept columns, shared into %s", sharedInto.getName()).isEqualTo(keptValues);
            }
            decoder.releaseRecycled();
            assertThat(consumer.getAllocatedMemory()).isZero();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /**
     * After one huge batch, batches of a few rows: the tree the huge batch grew is released within the bound
     * ({@code RecycledRoot}: kept while at most eight times the larger of 16 KiB and the recent peak, the peak halving
     * per batch), and then what stays pinned between batches is small.
     */
    @Test
    void aTreeFarLargerThanRecentBatchesIsReleased() {
        try (RootAllocator allocator = new RootAllocator()) {
            BatchDecoder decoder = Formats.decoder("json", TYPE, Map.of());
            DecodedBatch huge = decode(decoder, allocator, full(0, 4096));
            decoder.recycle(huge.takeRoot());
            long afterHuge = allocator.getAllocatedMemory();
            assertThat(afterHuge).as("kept after the huge batch").isGreaterThan(1 << 20);
            // the peak halves per batch from > 1 MiB to below 16 KiB * 8 / 8 within log2(1 MiB / 16 KiB) + 3 batches
            for (int i = 0; i < 10; i++) {
                String[] records = full(i, 2);
                DecodedBatch small = decode(decoder, allocator, records);
                assertFlinksRows(small, records);
                decoder.recycle(small.takeRoot());
            }
            assertThat(allocator.getAllocatedMemory()).as("pinned after ten batches of two rows")
                    .isLessThan(8 * 16 * 1024);
            decoder.releaseRecycled();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /** Every value, long strings, lists and maps of several entries, nested lists. */
    private static String[] full(int from, int count) {
        String[] records = new String[count];
        for (int i = 0; i < count; i++) {
            int n = from + i;
            records[i] = "{\"id\":" + n + ",\"ok\":" + (n % 2 == 0) + ",\"price\":" + n + ".25,\"ts\":\"2020-01-02"
                    + " 03:04:05." + (100 + n % 900) + "\",\"name\":\"" + "long name ".repeat(1 + n % 9) + n
                    + "\",\"tags\":[\"a" + n + "\",\"bb\",\"" + "c".repeat(n % 13) + "\"],\"counts\":{\"k" + n
                    + "\":" + n + ",\"z\":2,\"y\":3},\"r\":{\"x\":" + n + ",\"s\":\"" + "s".repeat(n % 17)
                    + "\",\"l\":[" + n + "," + (n + 1) + "," + (n + 2) + "]}}";
        }
        return records;
    }

    /** Nulls (explicit or missing) where a full batch has values, the nested row's fields included. */
    private static String[] withNulls(int count) {
        String[] records = new String[count];
        for (int i = 0; i < count; i++) {
            records[i] = i % 2 == 0 ? "{\"id\":null,\"ok\":null,\"price\":null,\"ts\":null,\"name\":null,"
                    + "\"tags\":null,\"counts\":null,\"r\":null}" : "{\"r\":{\"x\":null,\"l\":[null]}}";
        }
        return records;
    }

    /** Empty strings, lists and maps after long ones. */
    private static String[] emptyValues(int count) {
        String[] records = new String[count];
        for (int i = 0; i < count; i++) {
            records[i] = "{\"id\":" + i + ",\"name\":\"\",\"tags\":[],\"counts\":{},\"r\":{\"x\":" + i
                    + ",\"s\":\"\",\"l\":[]}}";
        }
        return records;
    }

    /** Null lists and maps before ones with entries: offsets filled after nulls, from this batch's entries. */
    private static String[] nullsFirst(int count) {
        String[] records = new String[count];
        for (int i = 0; i < count; i++) {
            records[i] = i < count - 1 ? "{\"id\":" + i + ",\"r\":{\"x\":1}}"
                    : "{\"id\":" + i + ",\"tags\":[\"t\"],\"counts\":{\"k\":1},\"r\":{\"l\":[7,8]}}";
        }
        return records;
    }

    private static int assertFlinksRows(DecodedBatch batch, String[] records) {
        FlinkJsonDecodeOracle flink = FlinkJsonDecodeOracle.of(TYPE, Map.of());
        assertThat(batch.rowCount()).isEqualTo(records.length);
        for (int i = 0; i < records.length; i++) {
            assertThat(PlainValues.decodedFromArrow(batch.root(), TYPE, i)).as("row %d: %s", i, records[i])
                    .isEqualTo(PlainValues.decodedFromFlink(flink.deserialize(bytes(records[i])).rows().get(0), TYPE));
        }
        return records.length;
    }

    /**
     * The bytes of every buffer of {@code root} (as Arrow writes them out: up to each buffer's written size) are a
     * new decoder's, in a new allocator, for the same records: no byte of an earlier batch shows, not even under a
     * null.
     */
    private static void assertSameBytesAsAFreshDecode(VectorSchemaRoot root, String[] records) {
        try (RootAllocator allocator = new RootAllocator();
                DecodedBatch fresh = decode(Formats.decoder("json", TYPE, Map.of()), allocator, records)) {
            assertThat(buffers(root)).as("the buffers of a batch of %d records", records.length)
                    .isEqualTo(buffers(fresh.root()));
        }
    }

    private static List<String> buffers(VectorSchemaRoot root) {
        List<String> out = new ArrayList<>();
        try (ArrowRecordBatch unloaded = new VectorUnloader(root).getRecordBatch()) {
            for (ArrowBuf buffer : unloaded.getBuffers()) {
                byte[] bytes = new byte[(int) buffer.writerIndex()];
                buffer.getBytes(0, bytes);
                out.add(HexFormat.of().formatHex(bytes));
            }
        }
        return out;
    }

    private static String contents(FieldVector column) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < column.getValueCount(); i++) {
            Object value = column.getObject(i);
            out.append(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value).append(';');
        }
        return out.toString();
    }
}
