package io.columnarkafka.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.columnarkafka.client.RecordSizeLimit;
import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.record.PreSerializedRecord;
import io.columnarkafka.flink.sink.EncodeFunction;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.lang.reflect.Constructor;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.connectors.kafka.table.SinkBufferFlushMode;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Arrow-fed sink of an upsert table fed a changelog against Flink's own record serializer for it ({@code
 * DynamicKafkaRecordSerializationSchema} in upsert mode, flink-connector-kafka 5.0.0-2.2, with Flink's json
 * serializers): random batches of random row kinds, nulls in any nullable column, a random selection of the rows
 * (a columnar filter's), maps with a null key (Flink's json serializer fails on one) in some rows. Each record's key
 * and value (null for a DELETE or UPDATE_BEFORE row) equal Flink's; a batch fails exactly when Flink fails on one of
 * its written rows, which is never a tombstone's (Flink serializes no tombstone's value). Allocators close at zero.
 */
class ArrowSinkTombstoneProperties {
    private static final RowType TYPE = (RowType) DataTypes.ROW(
            DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
            DataTypes.FIELD("name", DataTypes.STRING()),
            DataTypes.FIELD("tags", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
            DataTypes.FIELD("amount", DataTypes.DECIMAL(12, 3))).notNull().getLogicalType();
    private static final RowType KEY_TYPE = (RowType) DataTypes.ROW(
            DataTypes.FIELD("id", DataTypes.BIGINT().notNull())).notNull().getLogicalType();
    private static final String ROW_KINDS = "$row_kind";
    /** The sink context Flink's serializer asks for the topic's partitions (no partitioner: the producer picks). */
    private static final KafkaRecordSerializationSchema.KafkaSinkContext ONE_PARTITION =
            new KafkaRecordSerializationSchema.KafkaSinkContext() {
                @Override
                public int getParallelInstanceId() {
                    return 0;
                }

                @Override
                public int getNumberOfParallelInstances() {
                    return 1;
                }

                @Override
                public int[] getPartitionsForTopic(String topic) {
                    return new int[] {0};
                }
            };
    private static final AtomicInteger RECORDS = new AtomicInteger();
    private static final AtomicInteger TOMBSTONES = new AtomicInteger();
    private static final AtomicInteger NULL_KEY_TOMBSTONES = new AtomicInteger();
    private static final AtomicInteger FAILED = new AtomicInteger();

    @AfterContainer
    static void comparedEnough() {
        assertThat(RECORDS.get()).as("records compared").isGreaterThan(10_000);
        assertThat(TOMBSTONES.get()).as("tombstones compared").isGreaterThan(2_000);
        assertThat(NULL_KEY_TOMBSTONES.get()).as("tombstones whose value Flink's json cannot write").isGreaterThan(50);
        assertThat(FAILED.get()).as("batches Flink failed").isGreaterThan(10);
        assertThat(ArrowMemory.allocatedBytes()).as(ArrowMemory.describe()).isZero();
    }

    @Property(tries = 250)
    void writesTheRecordsFlinksUpsertSerializerWrites(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        int rowCount = random.nextInt(200);
        // in a third of the batches a tombstone's map often holds a null key, another row's rarely (Flink fails)
        boolean nullKeys = random.nextInt(3) == 0;
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < rowCount; i++) {
            RowKind kind = RowKind.fromByteValue((byte) random.nextInt(4));
            boolean tombstone = kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
            rows.add(row(random, i, kind, !nullKeys ? 0 : tombstone ? 0.3 : 0.02));
        }
        int[] selection = random.nextBoolean() ? null
                : IntStream.range(0, rowCount).filter(i -> random.nextInt(4) > 0).toArray();
        int[] written = selection == null ? IntStream.range(0, rowCount).toArray() : selection;

        KafkaRecordSerializationSchema<RowData> flink = flinkUpsertSerializer();
        List<ProducerRecord<byte[], byte[]>> expected = new ArrayList<>();
        Throwable expectedFailure = null;
        for (int row : written) {
            try {
                expected.add(flink.serialize(rows.get(row), ONE_PARTITION, null));
            } catch (RuntimeException e) {
                expectedFailure = e;
                break;
            }
        }

        List<PreSerializedRecord> actual = new ArrayList<>();
        Throwable actualFailure = catchThrowable(() -> actual.addAll(encode(rows, selection)));
        if (expectedFailure != null) {
            assertThat(actualFailure).as("Flink failed: " + expectedFailure.getMessage()).isNotNull();
            FAILED.incrementAndGet();
            return;
        }
        assertThat(actualFailure).isNull();
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            RowData row = rows.get(written[i]);
            assertThat(actual.get(i).key()).as("key of row %d", written[i]).isEqualTo(expected.get(i).key());
            assertThat(actual.get(i).value()).as("value of row %d (%s)", written[i], row.getRowKind())
                    .isEqualTo(expected.get(i).value());
            if (expected.get(i).value() == null) {
                TOMBSTONES.incrementAndGet();
                if (hasNullMapKey(row)) {
                    NULL_KEY_TOMBSTONES.incrementAndGet();
                }
            }
        }
        RECORDS.addAndGet(expected.size());
    }

    /** The rows written through the encode operator of an upsert table's Arrow-fed sink, as the planner builds it. */
    private static List<PreSerializedRecord> encode(List<RowData> rows, int[] selection) throws Exception {
        KafkaSinkShape shape = new KafkaSinkShape(TYPE, new int[] {0}, new int[] {0, 1, 2, 3}, null, "json", Map.of(),
                "json", Map.of(), List.of("t"), null, null, true, SinkBufferFlushMode.DISABLED, null, List.of(),
                new Properties(), DeliveryGuarantee.AT_LEAST_ONCE, null, TransactionNamingStrategy.DEFAULT);
        EncodePlan plan = EncodePlan.of(shape, new ColumnarOptions.Settings(1024, 100, 0), "upsert");
        RowType batchType = NullableTypes.deep(RowDataArrowWriter.withRowKindColumn(TYPE, ROW_KINDS));
        ArrowSinkEncoding encoding = ArrowSinkEncoding.of(plan, batchType, null, true);
        BufferAllocator producer = ArrowMemory.newChild("tombstone-producer", 64L << 20);
        try (OneInputStreamOperatorTestHarness<ArrowBatch, PreSerializedRecord> harness =
                new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(
                        EncodeFunction.ofRecords(encoding, 64L << 20, RecordSizeLimit.of(new Properties()), 0)))) {
            harness.open();
            RowDataArrowWriter writer = new RowDataArrowWriter(NullableTypes.deep(TYPE), ROW_KINDS, producer);
            rows.forEach(writer::write);
            ArrowBatch batch = selection == null ? ArrowBatch.of(writer.finish(), writer)
                    : ArrowBatch.of(writer.finish(), writer, selection, selection.length);
            harness.processElement(new StreamRecord<>(batch));
            return harness.extractOutputValues();
        } finally {
            producer.close();
        }
    }

    /** A row of {@code kind}; {@code nullKeyChance} of its maps hold a null key. */
    private static RowData row(Random random, int i, RowKind kind, double nullKeyChance) {
        GenericRowData row = new GenericRowData(kind, 4);
        row.setField(0, random.nextBoolean() ? (long) i : random.nextLong());
        row.setField(1, random.nextInt(5) == 0 ? null : StringData.fromString(
                random.nextBoolean() ? "n\u00fc\"" + i : "\uD83D\uDE00\\" + i));
        if (random.nextInt(4) > 0) {
            Map<Object, Object> tags = new HashMap<>();
            for (int k = random.nextInt(4); k > 0; k--) {
                tags.put(StringData.fromString("k" + random.nextInt(10)), random.nextInt(3) == 0 ? null
                        : random.nextLong());
            }
            if (random.nextDouble() < nullKeyChance) {
                tags.put(null, 1L);
            }
            row.setField(2, new GenericMapData(tags));
        }
        row.setField(3, random.nextInt(5) == 0 ? null : DecimalData.fromBigDecimal(
                BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000L, 3), 12, 3));
        return row;
    }

    private static boolean hasNullMapKey(RowData row) {
        return !row.isNullAt(2) && ((GenericMapData) row.getMap(2)).get(null) != null;
    }

    /**
     * Flink's {@code DynamicKafkaRecordSerializationSchema} (package-private) as {@code upsert-kafka} makes it for
     * the table: json key of {@code id}, json value of every column, upsert mode.
     */
    @SuppressWarnings("unchecked")
    private static KafkaRecordSerializationSchema<RowData> flinkUpsertSerializer() throws Exception {
        Class<?> type = Class.forName(
                "org.apache.flink.streaming.connectors.kafka.table.DynamicKafkaRecordSerializationSchema");
        Constructor<?> constructor = type.getDeclaredConstructor(List.class, java.util.regex.Pattern.class,
                KafkaPartitioner.class, SerializationSchema.class, SerializationSchema.class,
                RowData.FieldGetter[].class, RowData.FieldGetter[].class, boolean.class, int[].class, boolean.class);
        constructor.setAccessible(true);
        RowData.FieldGetter[] valueGetters = IntStream.range(0, TYPE.getFieldCount())
                .mapToObj(i -> RowData.createFieldGetter(TYPE.getTypeAt(i), i)).toArray(RowData.FieldGetter[]::new);
        RowData.FieldGetter[] keyGetters = {RowData.createFieldGetter(TYPE.getTypeAt(0), 0)};
        // no metadata column: -1 for each metadata key the sink can write, as KafkaDynamicSink fills them
        int[] noMetadata = new int[Class.forName(
                "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink$WritableMetadata")
                .getEnumConstants().length];
        java.util.Arrays.fill(noMetadata, -1);
        return (KafkaRecordSerializationSchema<RowData>) constructor.newInstance(List.of("t"), null, null,
                TestRows.flinkJson(KEY_TYPE), TestRows.flinkJson(TYPE), keyGetters, valueGetters, false, noMetadata,
                true);
    }
}
