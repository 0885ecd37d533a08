package io.columnarkafka.flink.table;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowBatchTypeInfo;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.record.PreSerializedRecordTypeInfo;
import io.columnarkafka.flink.sink.ColumnarKafkaSink;
import io.columnarkafka.flink.sink.EncodeFunction;
import io.columnarkafka.flink.sink.WindowedSendOperator;
import io.columnarkafka.flink.typeutils.LentRowTypeInfo;
import io.columnarkafka.format.arrow.RowKindVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;

/**
 * What a planner stage may ask of the {@code kafka-columnar} tables: whether a table source or sink is
 * ours and admitted, and their Arrow runtimes (a scan emitting {@link ArrowBatch}es, a sink consuming them)
 * in place of the RowData runtimes the connectors give Flink's planner. The decisions stay the
 * connectors' ({@link ScanAdmissionMatcher}, {@link AdmissionMatcher}).
 */
public final class ColumnarTables {
    private ColumnarTables() {}

    /** The scan decision of a {@code kafka-columnar} source, or empty for any other source. */
    public static Optional<Admission> scanAdmission(DynamicTableSource source) {
        return source instanceof ColumnarKafkaDynamicSource columnar ? Optional.of(columnar.admission())
                : source instanceof FallbackKafkaSource fallback ? Optional.of(fallback.admission())
                : Optional.empty();
    }

    /**
     * Whether an admitted {@code kafka-columnar} scan may emit Arrow batches: its own decision, then what a
     * batch cannot reproduce. Empty for any other source.
     */
    public static Optional<Admission> arrowScanAdmission(DynamicTableSource source) {
        Optional<Admission> own = scanAdmission(source);
        if (own.isEmpty() || !own.get().isAdmitted()) {
            return own;
        }
        ColumnarKafkaDynamicSource columnar = (ColumnarKafkaDynamicSource) source;
        if (columnar.shape().upsertMode()) {
            // Flink plans a ChangelogNormalize right after an upsert scan, a row operator: the rows are what it reads.
            return Optional.of(Admission.fallback(FallbackReason.UNSUPPORTED_CHANGELOG,
                    "upsert: Flink's ChangelogNormalize reads the scan's rows; the connector's row scan (columnar"
                            + " decode) sets each row's kind"));
        }
        if (columnar.hasWatermark() && columnar.shape().watermarkOnEvent()) {
            return Optional.of(Admission.fallback(FallbackReason.UNSUPPORTED_WATERMARK,
                    "scan.watermark.emit.strategy=on-event: Flink emits a watermark after each row, inside what"
                            + " would be one Arrow batch"));
        }
        return own;
    }

    /**
     * Whether the watermark expression pushed into an admitted Arrow scan (over the scan's produced row type) is
     * evaluated on its batches' vectors: empty if so, else why not (the scan then finds each batch's row with
     * Flink's generator, {@link ArrowBatchWatermarks}).
     */
    public static Optional<String> columnarWatermarkUnsupported(DynamicTableSource source, Expr watermark) {
        return ((ColumnarKafkaDynamicSource) source).columnarWatermarkUnsupported(watermark);
    }

    /**
     * The Arrow batches of an admitted scan: the columns the planner pushed into the source, in order. Each batch
     * is lent to every consumer for its hand-over ({@code ArrowBatch#lend}), so the planner may share the scan
     * among several branches.
     *
     * @param producedType the planner's type of the rows the source would produce (Flink's Kafka source
     *     is built with it; the columnar source only takes its Kafka settings)
     * @param columnarWatermark the pushed watermark expression, one {@link #columnarWatermarkUnsupported} admits,
     *     evaluated on the vectors; null when the scan has no watermark or it is not admitted
     */
    public static DataStream<ArrowBatch> arrowScan(DynamicTableSource source, StreamExecutionEnvironment env,
            TypeInformation<RowData> producedType, String name, Expr columnarWatermark) {
        ColumnarKafkaDynamicSource columnar = (ColumnarKafkaDynamicSource) source;
        DataStreamSource<ArrowBatch> batches = env.fromSource(columnar.arrowSource(producedType),
                columnar.arrowWatermarks(columnarWatermark), name, ArrowBatchTypeInfo.INSTANCE);
        if (columnar.parallelism() != null) {
            batches.setParallelism(columnar.parallelism());
        }
        return batches;
    }

    /**
     * Whether a {@code kafka-columnar} sink may be fed Arrow batches: its own decision (the Arrow-fed sink writes every
     * shape the connector admits, a reducing upsert buffer too). Empty for any other sink.
     */
    public static Optional<Admission> arrowSinkAdmission(DynamicTableSink sink) {
        if (!(sink instanceof ColumnarKafkaDynamicSink columnar)) {
            return Optional.empty();
        }
        Admission own = columnar.admission();
        if (!own.isAdmitted()) {
            return Optional.of(own);
        }
        return Optional.of(Admission.admitted(own.detail() + ", Arrow input"));
    }

    /**
     * The {@code sink.parallelism} of a {@code kafka-columnar} sink, or null (the input's): how Flink would move the
     * rows to the sink's subtasks is the planner's to reproduce ({@link #keyedExchange}, {@link #roundRobinExchange}).
     */
    public static Integer parallelism(DynamicTableSink sink) {
        return ((ColumnarKafkaDynamicSink) sink).shape().parallelism();
    }

    /**
     * The parallelism a {@code kafka-columnar} sink's runtime provider reports to Flink's sink node, as Flink's own
     * Kafka table sink reports it, or null: with {@code sink.buffer-flush.*} on an upsert table Flink's provider
     * reports none and sets the parallelism on its sink itself, so Flink's sink node decides its keyed shuffle as for
     * a sink at the input's parallelism.
     */
    public static Integer reportedParallelism(DynamicTableSink sink) {
        return ColumnarSinkTranslator.reportedParallelism(((ColumnarKafkaDynamicSink) sink).shape());
    }

    /**
     * The batches for an admitted sink, moved as Flink's sink node moves its rows where it shuffles them by the
     * primary key ({@code CommonExecSink.applyKeyBy}): each row to the sink subtask Flink's {@code
     * KeyGroupStreamPartitioner} picks for the key {@code keys} (Flink's key selector of the rows) makes of it, among
     * {@code sinkParallelism} subtasks, over the key groups of the sink's max parallelism (the job's {@code
     * pipeline.max-parallelism}, else Flink's default for that parallelism), with which Flink configures the
     * partitioner. Each input subtask's rows reach a subtask in their order. With {@code rowKinds} the batches carry
     * each row's kind after the consumed columns.
     */
    public static DataStream<ArrowBatch> keyedExchange(DynamicTableSink sink, DataStream<ArrowBatch> batches,
            KeySelector<RowData, RowData> keys, boolean rowKinds, int sinkParallelism, ProviderContext uids) {
        ColumnarKafkaDynamicSink columnar = (ColumnarKafkaDynamicSink) sink;
        RowType rowType = consumedType(columnar.shape(), batchType(columnar, rowKinds));
        int configuredMax = batches.getExecutionConfig().getMaxParallelism();
        int maxParallelism = configuredMax > 0 ? configuredMax
                : KeyGroupRangeAssignment.computeDefaultMaxParallelism(sinkParallelism);
        return BatchExchange.of(batches, new KeyGroupSplit(keys, rowType, rowKinds, sinkParallelism, maxParallelism),
                "HASH", SubtaskStateMapper.RANGE, "KeyGroupSplit[" + columnar.asSummaryString() + "]", uids);
    }

    /**
     * The batches for an admitted sink at {@code sinkParallelism}, moved as Flink moves the rows between an input and a
     * sink of another parallelism where its sink node shuffles nothing: each row to the next subtask ({@code
     * RebalancePartitioner}).
     */
    public static DataStream<ArrowBatch> roundRobinExchange(DynamicTableSink sink, DataStream<ArrowBatch> batches,
            int sinkParallelism, ProviderContext uids) {
        return BatchExchange.of(batches, new RoundRobinSplit(sinkParallelism), "REBALANCE",
                SubtaskStateMapper.ROUND_ROBIN, "RoundRobinSplit[" + sink.asSummaryString() + "]", uids);
    }

    /**
     * Whether an admitted {@code kafka-columnar} sink writes a changelog's rows by their kinds, so it may be fed
     * batches of a changelog, whose row-kind column ({@link io.columnarkafka.format.arrow.RowKindVector}) follows the
     * batch's other columns: a changelog value format (debezium-json, canal-json, maxwell-json, ogg-json) writes each
     * kind's envelope; an upsert table writes DELETE and UPDATE_BEFORE rows as tombstones ({@link RowKindTombstones}).
     */
    public static boolean writesChangelog(DynamicTableSink sink) {
        KafkaSinkShape shape = ((ColumnarKafkaDynamicSink) sink).shape();
        return shape.upsertMode() || AdmissionMatcher.rowKindColumn(shape) != null;
    }

    /** The connector's own decision for a {@code kafka-columnar} sink (its runtime fed rows), or empty for any other. */
    public static Optional<Admission> sinkAdmission(DynamicTableSink sink) {
        return sink instanceof ColumnarKafkaDynamicSink columnar ? Optional.of(columnar.admission()) : Optional.empty();
    }

    /**
     * Why an admitted sink fed rows cannot take Flink's sink steps into its encode operator ({@link #rowSink}), or
     * empty: with metadata columns the rows Flink's enforcer checks carry them too (kept narrow), and with {@code
     * sink.parallelism} Flink's sink node runs its steps at another parallelism than the input's, possibly behind a
     * keyed shuffle.
     */
    public static Optional<String> rowSinkUnsupported(DynamicTableSink sink) {
        KafkaSinkShape shape = ((ColumnarKafkaDynamicSink) sink).shape();
        if (!shape.metadataKeys().isEmpty()) {
            return Optional.of("metadata columns " + shape.metadataKeys());
        }
        if (shape.parallelism() != null) {
            return Optional.of("sink.parallelism " + shape.parallelism());
        }
        return Optional.empty();
    }

    /**
     * The runtime of an admitted sink fed rows, in place of Flink's sink node: the connector's encode operator
     * running {@code head} (what Flink's sink node would run as operators in front of it) on each row, then Flink's
     * {@code KafkaSink}, as the connector's runtime provider builds them, at the input's parallelism.
     */
    public static DataStreamSink<?> rowSink(DynamicTableSink sink, DataStream<RowData> rows, SinkRowHead head,
            ProviderContext context) {
        ColumnarKafkaDynamicSink columnar = (ColumnarKafkaDynamicSink) sink;
        return ColumnarSinkTranslator.rowSink(columnar.shape(), columnar.batching(), columnar.asSummaryString(), rows,
                head, context);
    }

    /**
     * Encodes the batches with the admitted sink's encoders and writes them through the Flink
     * {@link KafkaSink} Flink's Kafka table sink would configure (delivery guarantee, transactions and
     * properties are Flink's). Both operators get the sink's parallelism ({@code sink.parallelism}, else the
     * input's), so they chain; {@code uids} names them where Flink's uid generation asks, the writer as Flink names
     * its own sink's. {@code notNullEnforcer} is the constraint enforcer Flink's sink node would run, holding only
     * its NOT NULL constraint, or null for none; the encode operator runs it on the batches. With {@code rowKinds}
     * (a sink that {@link #writesChangelog}) the batches are a changelog's, each row's kind in their last column; else
     * every row is an insert. A custom partitioner is called in the writer's serializer, as Flink calls it, with each
     * record's consumed row, a view of the batch ({@link ConsumedRowElements}). An upsert table with {@code
     * sink.buffer-flush.*} reduces the rows per key first, as Flink's writer does
     * ({@link ArrowReducingEncodeOperator}), and hands its partitioner the buffered rows.
     */
    public static DataStreamSink<?> arrowSink(DynamicTableSink sink, DataStream<ArrowBatch> batches, String name,
            ProviderContext uids, ConstraintEnforcerExecutor notNullEnforcer, boolean rowKinds) {
        ColumnarKafkaDynamicSink columnar = (ColumnarKafkaDynamicSink) sink;
        KafkaSinkShape shape = columnar.shape();
        String description = columnar.asSummaryString();
        ArrowNotNullEnforcer notNull = notNullEnforcer == null ? null
                : new ArrowNotNullEnforcer(notNullEnforcer, notNullColumns(shape.physicalType()));
        RowType batchType = batchType(columnar, rowKinds);
        RowType consumedType = consumedType(shape, batchType);
        if (EncodePlan.ReducingBuffer.of(shape) != null) {
            // Flink's reducing upsert writer keeps a copy of the latest row per key and writes the copies at its
            // flushes: the batches' rows wait there as rows, and are encoded when a flush writes them.
            return ColumnarSinkTranslator.reducingArrowSink(shape, columnar.batching(), description, batches, name,
                    consumedType, rowKinds, notNull, uids);
        }
        EncodePlan plan = rowKinds ? EncodePlan.of(shape, columnar.batching(), description)
                : EncodePlan.ofInserts(shape, columnar.batching(), description);
        ArrowSinkEncoding encoding = ArrowSinkEncoding.of(plan, batchType, notNull, rowKinds);
        long allocatorLimit = ColumnarKafkaSink.DEFAULT_ALLOCATOR_LIMIT;
        RecordSizeLimit sizeLimit = RecordSizeLimit.of(shape.properties());
        if (!ColumnarSinkTranslator.readsRows(shape.partitioner())) {
            return arrowSink(batches, name, uids, shape, plan, EncodedRecords.RECORDS,
                    EncodeFunction.ofRecords(encoding, allocatorLimit, sizeLimit, plan.sendWindowNanos()),
                    PreSerializedRecordTypeInfo.INSTANCE);
        }
        int consumed = consumedType.getFieldCount();
        int kindColumn = rowKinds ? batchType.getFieldCount() - 1 : -1;
        return arrowSink(batches, name, uids, shape, plan, EncodedRecords.WITH_ROWS,
                new EncodeFunction<>(encoding, () -> new ConsumedRowElements(batchType, consumed, kindColumn),
                        allocatorLimit, sizeLimit, plan.sendWindowNanos()),
                EncodedRecords.WITH_ROWS.recordType(new LentRowTypeInfo(consumedType)));
    }

    /**
     * The encode operator, then the {@code KafkaSink} taking its elements, both at the sink's parallelism (else the
     * input's), so they chain.
     */
    private static <R> DataStreamSink<?> arrowSink(DataStream<ArrowBatch> batches, String name, ProviderContext uids,
            KafkaSinkShape shape, EncodePlan plan, EncodedRecords<?, R> elements, EncodeFunction<R> encode,
            TypeInformation<R> elementType) {
        int parallelism = shape.parallelism() != null ? shape.parallelism() : batches.getParallelism();
        SingleOutputStreamOperator<R> records = WindowedSendOperator.append(batches, encode, elementType, name)
                .setParallelism(parallelism);
        uids.generateUid("columnar-encode").ifPresent(records::uid);
        DataStreamSink<R> end = records.sinkTo(ColumnarSinkTranslator.kafkaSink(shape, elements,
                        plan.sendWindowNanos()))
                .name("KafkaSink[" + plan.description() + "]")
                .setParallelism(parallelism);
        uids.generateUid(ColumnarSinkTranslator.WRITER_UID).ifPresent(end::uid);
        return end;
    }

    /**
     * The top-level NOT NULL columns of {@code rowType} (the declared physical type: the encode plan's is made
     * nullable), the fields Flink's NOT NULL enforcer checks.
     */
    private static int[] notNullColumns(RowType rowType) {
        return IntStream.range(0, rowType.getFieldCount()).filter(i -> !rowType.getTypeAt(i).isNullable()).toArray();
    }

    /** The consumed rows' columns of {@code batchType}: the physical, then the metadata ones (no row-kind column). */
    private static RowType consumedType(KafkaSinkShape shape, RowType batchType) {
        return new RowType(batchType.getFields().subList(0,
                shape.physicalType().getFieldCount() + shape.metadataKeys().size()));
    }

    /**
     * The columns of the batches an Arrow-fed sink consumes, as Flink's sink node hands it rows: the physical
     * columns, then the metadata columns in the sink's order with the types the connector lists for them, then, with
     * {@code rowKinds}, the row-kind column (named as the encode plan names it); every type nullable, as the
     * encoders' layout.
     */
    private static RowType batchType(ColumnarKafkaDynamicSink sink, boolean rowKinds) {
        KafkaSinkShape shape = sink.shape();
        List<RowType.RowField> fields = new ArrayList<>(shape.physicalType().getFields());
        for (String key : shape.metadataKeys()) {
            // named apart from the physical columns, which may be called "timestamp" too
            fields.add(new RowType.RowField("$metadata:" + key, sink.listWritableMetadata().get(key).getLogicalType()));
        }
        if (rowKinds) {
            fields.add(new RowType.RowField(RowKindVector.columnBeside(shape.physicalType().getFieldNames()),
                    new TinyIntType()));
        }
        return NullableTypes.deep(new RowType(fields));
    }
}
