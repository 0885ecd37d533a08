package io.columnarkafka.bench;

import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.RecordChunk;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.ColumnarCalc;
import io.columnarkafka.flink.source.ArrowBatchOutput;
import io.columnarkafka.flink.source.DecodeMetrics;
import io.columnarkafka.flink.source.reader.BatchTimeCap;
import io.columnarkafka.flink.source.reader.ChunkEmitter;
import io.columnarkafka.flink.table.ArrowInPlaceRowView;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkJson;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.TaskInfoImpl;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.functions.util.RuntimeUDFContext;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One emit step of the planner scan's source and what its chain does with the batch, for batches of one size: a
 * Kafka chunk of Nexmark events (Flink json) through the source's own {@link ChunkEmitter} (decode into Arrow, the
 * batch lent downstream as the planner scan lends it, the split's offset, the step metrics), then, by {@link
 * Stage}, nothing more, the columnar calc (by default Nexmark q0's bid view, {@code WHERE event_type = 2}, five bid
 * fields; the output lent as {@code ColumnarCalcOperator} lends it), the calc and the Arrow-to-rows edge writing every
 * selected row as Flink's {@code BinaryRowData}, as {@code ArrowToRowsOperator} does, or the calc and the columnar
 * sink's work: every selected row encoded as Flink's json (the sink's value encoder) and copied out into the
 * {@code byte[]} a Kafka record takes, as {@code EncodeFunction} does. The chunks cycle through the
 * same {@value #EVENT_POOL} events for every size. Planned once, as a task plans them; closing it frees everything
 * (the allocators fail to close on a leak).
 */
final class SmallBatchChain implements AutoCloseable {
    static final int EVENT_POOL = 4096;
    private static final TopicPartition PARTITION = new TopicPartition("nexmark", 0);
    /** The runtime context a calc that runs Flink's generated code (q14's user-defined function) opens it on. */
    private static final RuntimeContext TASK = new RuntimeUDFContext(new TaskInfoImpl("read-phase", 1, 0, 1, 0),
            SmallBatchChain.class.getClassLoader(), new ExecutionConfig(), Map.of(), Map.of(),
            UnregisteredMetricsGroup.createOperatorMetricGroup());

    /** How far down the chain a step goes. */
    enum Stage { DECODE, CALC, EDGE, ENCODE }

    /** Whether the scan's decoder builds each batch in the buffers of the batch before, or in new ones. */
    enum DecoderBuffers {
        /** As the scan runs: the decoder keeps a batch's buffers for the next batch while it alone holds them. */
        KEPT,
        /**
         * Every batch in new buffers, as before they were kept: the chain holds one buffer of each batch until its
         * next step, so the decoder, not their only holder, frees the tree's buffers when the batch comes back (as
         * for a calc's shared column) and allocates the next batch's. The same vector objects, the same code.
         */
        FRESH
    }

    private final int batchSize;
    private final BufferAllocator readerAllocator;
    private final BufferAllocator calcAllocator;
    private final ChunkEmitter<ArrowBatch> emitter;
    private final KafkaPartitionSplitState split = new KafkaPartitionSplitState(new KafkaPartitionSplit(PARTITION, 0));
    private final RecordChunk[] chunks;
    private final ColumnarCalc calc;
    private final ArrowInPlaceRowView edge;
    private final BatchEncoder encoder;
    private final Downstream downstream = new Downstream();
    private final DecoderBuffers buffers;
    /** The buffer of the last batch a {@link DecoderBuffers#FRESH} chain holds, or null. */
    private ArrowBuf held;
    private int next;

    /** The chain with q0's calc, its decoder keeping buffers. */
    SmallBatchChain(int batchSize, BufferAllocator parent) {
        this(batchSize, parent, CalcBenchmark.q0(), DecoderBuffers.KEPT);
    }

    /**
     * @param parent the allocator the reader's and the calc's children are made of
     * @param program the calc's program over the Nexmark event rows or the fields of them its input has (the scan
     *     decodes those, as the planner scan decodes its projection)
     */
    SmallBatchChain(int batchSize, BufferAllocator parent, CalcProgram program, DecoderBuffers buffers) {
        if (batchSize < 1 || batchSize > EVENT_POOL) {
            throw new IllegalArgumentException("batch size " + batchSize + " is not in [1, " + EVENT_POOL + "]");
        }
        this.batchSize = batchSize;
        this.buffers = buffers;
        readerAllocator = parent.newChildAllocator("reader " + batchSize, 0, Long.MAX_VALUE);
        calcAllocator = parent.newChildAllocator("calc " + batchSize, 0, Long.MAX_VALUE);
        DecodingSpec spec = new DecodingSpec(program.input(), "json", Map.of(), null, null, List.of(), "",
                DecodingSpec.ValueFieldsInclude.ALL, List.of(), false, null);
        emitter = new ChunkEmitter<>(spec, -1, readerAllocator, ArrowBatchOutput.LENDING,
                new DecodeMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup()),
                new BatchTimeCap(batchSize, 0));
        chunks = chunks(batchSize);
        calc = ColumnarCalc.plan(program, calcAllocator, TASK);
        edge = new ArrowInPlaceRowView(calc.program().outputType());
        encoder = Formats.encoder("json", Projection.all(calc.program().outputType()), Map.of());
    }

    int batchSize() {
        return batchSize;
    }

    DecoderBuffers buffers() {
        return buffers;
    }

    /** {@value #EVENT_POOL} events as consumer records, cut into chunks of {@code size}. */
    private static RecordChunk[] chunks(int size) {
        RecordSlab slab;
        try (NexmarkJson json = new NexmarkJson(new NexmarkGenerator(NexmarkConfig.defaults(42)))) {
            slab = json.encode(0, EVENT_POOL);
        }
        RecordChunk[] chunks = new RecordChunk[EVENT_POOL / size];
        for (int c = 0; c < chunks.length; c++) {
            chunks[c] = new RecordChunk(PARTITION, size);
            for (int i = 0; i < size; i++) {
                long offset = (long) c * size + i;
                ByteBuffer value = ByteBuffer.wrap(slab.copyRecord((int) offset));
                chunks[c].add(new ConsumerRecord<>(PARTITION.topic(), 0, offset, null, value), value.remaining());
            }
        }
        return chunks;
    }

    /** One step on the next chunk; returns a figure of what it produced, so no work is optimised away. */
    long step(Stage stage) {
        downstream.stage = stage;
        downstream.checksum = 0;
        releaseHeld();
        emitter.emitRecord(chunks[next], downstream, split);
        next = (next + 1) % chunks.length;
        return downstream.checksum;
    }

    /** The chain after the source: what the planner's operators do with each lent batch. */
    private final class Downstream implements SourceOutput<ArrowBatch> {
        Stage stage;
        long checksum;

        @Override
        public void collect(ArrowBatch batch, long timestamp) {
            if (buffers == DecoderBuffers.FRESH) {
                hold(batch.open(null));
            }
            if (stage == Stage.DECODE) {
                checksum = batch.selectedCount(null);
                return;
            }
            ArrowBatch result = calc.apply(batch);
            if (result.selection() != null && result.selectedCount(null) == 0) {
                result.close();
                return;
            }
            ArrowBatch lent = result.lent();
            try {
                checksum = stage == Stage.EDGE ? rowBytes(lent)
                        : stage == Stage.ENCODE ? recordBytes(lent) : lent.selectedCount(null);
            } finally {
                lent.reclaim();
            }
        }

        private long rowBytes(ArrowBatch batch) {
            VectorSchemaRoot root = batch.open(null);
            int[] selection = batch.selection();
            int count = batch.selectedCount(null);
            edge.bind(root);
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                bytes += edge.binaryRow(selection == null ? i : selection[i]).getSizeInBytes();
            }
            return bytes;
        }

        /** The sink's encode of the selected rows and the copy-out of each record's value. */
        private long recordBytes(ArrowBatch batch) {
            VectorSchemaRoot root = batch.open(null);
            int[] selection = batch.selection();
            RecordSlab values = selection == null
                    ? encoder.encode(root)
                    : encoder.encode(root, selection, batch.selectedCount(null));
            long bytes = 0;
            for (int i = 0; i < values.recordCount(); i++) {
                bytes += values.copyRecord(i).length;
            }
            return bytes;
        }

        @Override
        public void collect(ArrowBatch batch) {
            collect(batch, Long.MIN_VALUE);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }

    /** Holds the first buffer of {@code root}'s first column until the next step: see {@link DecoderBuffers#FRESH}. */
    private void hold(VectorSchemaRoot root) {
        for (ArrowBuf buffer : root.getVector(0).getFieldBuffers()) {
            if (buffer.capacity() > 0) {
                buffer.getReferenceManager().retain();
                held = buffer;
                return;
            }
        }
        throw new IllegalStateException("the batch's first column has no buffer to hold");
    }

    private void releaseHeld() {
        if (held != null) {
            held.getReferenceManager().release();
            held = null;
        }
    }

    @Override
    public void close() {
        releaseHeld();
        calc.close();
        calcAllocator.close();
        emitter.close();
    }
}
