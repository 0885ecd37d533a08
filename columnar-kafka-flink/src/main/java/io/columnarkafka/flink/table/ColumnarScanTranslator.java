package io.columnarkafka.flink.table;

import io.columnarkafka.client.decode.DecodingSpec;
import io.columnarkafka.client.decode.KafkaMetadata;
import io.columnarkafka.flink.source.BatchOutputFactory;
import io.columnarkafka.flink.source.ColumnarKafkaSource;
import io.columnarkafka.format.arrow.RowKindVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.ScanTableSource.ScanRuntimeProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;

/**
 * Builds the runtime of an admitted scan: a {@link ColumnarKafkaSource} with Flink's own Kafka settings
 * ({@link FlinkKafkaScan}), decoding the columns the query reads, whose per-batch output hands the planner
 * row views ({@link RowViewOutput}); the batches of an upsert scan and of a changelog value format (debezium-json,
 * canal-json, maxwell-json, ogg-json) carry each row's kind, which the views take.
 *
 * <p>What is decoded: the projected columns, plus every key column (a record gives a row only if its key
 * does, as in Flink, so the key is decoded even when the query does not read it). A format that does not
 * decode by field name ({@code raw}: one column; csv and avro, positional) and a projection with no value column
 * decode every value column. json decodes by name: its decoder is given every value column, as Flink's {@code
 * kafka} source (which takes no projection) gives its format, and checks the unread ones as Flink converts them
 * without building them ({@link DecodedColumns#fields}, {@code JsonBatchDecoder}), so a bad or missing unread
 * field rejects or skips a record as in Flink. Metadata columns follow the decoded ones, filled by the source from
 * each row's record.
 */
final class ColumnarScanTranslator {
    private ColumnarScanTranslator() {}

    static ScanRuntimeProvider provider(
            KafkaScanShape shape,
            FlinkKafkaScan kafka,
            ColumnarOptions.ScanSettings batching,
            int[] projectedFields,
            List<KafkaMetadata> metadata,
            TypeInformation<RowData> producedType,
            WatermarkStrategy<RowData> watermarks,
            String operatorName) {
        DecodedColumns decoded = DecodedColumns.of(shape, projectedFields, metadata);
        ColumnarKafkaSource<RowData> source = source(shape, kafka, batching, decoded.type(), metadata,
                new RowViewOutput(decoded.type(), decoded.columns(), shape.rowKinds(), producedType));
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(ProviderContext context, StreamExecutionEnvironment env) {
                DataStreamSource<RowData> rows = env.fromSource(source, watermarks, operatorName);
                context.generateUid("kafka-columnar-source").ifPresent(rows::uid);
                return rows;
            }

            @Override
            public boolean isBounded() {
                return source.getBoundedness() == Boundedness.BOUNDED;
            }

            @Override
            public Optional<Integer> getParallelism() {
                return Optional.ofNullable(shape.parallelism());
            }
        };
    }

    /**
     * A {@link ColumnarKafkaSource} with Flink's Kafka settings decoding {@code decodedType} in batches within the
     * table's caps, whose last fields hold {@code metadata}, whose batches go to {@code output}.
     */
    static <T> ColumnarKafkaSource<T> source(KafkaScanShape shape, FlinkKafkaScan kafka,
            ColumnarOptions.ScanSettings batching, RowType decodedType, List<KafkaMetadata> metadata,
            BatchOutputFactory<T> output) {
        RowType physical = shape.physicalType();
        ColumnarKafkaSource.Builder builder = ColumnarKafkaSource.builder()
                .setProperties(kafka.properties())
                .setStartingOffsets(kafka.startingOffsets())
                .setRowType(decodedType)
                .setValueFormatRowType(ScanAdmissionMatcher.valueType(shape))
                .setMetadata(metadata)
                .setUpsertMode(shape.upsertMode())
                .setValueFormat(shape.valueFormat(), shape.valueFormatOptions())
                .setMaxBatchRows(batching.maxBatchRows())
                .setMaxBatchTime(batching.maxBatchTime())
                .setMaxBatchBytes(batching.maxBatchBytes());
        if (shape.topicPattern() != null) {
            builder.setTopicPattern(shape.topicPattern());
        } else {
            builder.setTopics(shape.topics());
        }
        if (kafka.boundedness() == Boundedness.BOUNDED) {
            builder.setBounded(kafka.stoppingOffsets());
        } else {
            builder.setUnbounded(kafka.stoppingOffsets());
        }
        if (shape.hasKey()) {
            List<String> keyFields = new ArrayList<>();
            for (int field : shape.keyProjection()) {
                keyFields.add(physical.getFieldNames().get(field));
            }
            builder.setKeyFormat(shape.keyFormat(), shape.keyFormatOptions())
                    .setKeyFields(keyFields.toArray(new String[0]))
                    .setKeyFieldsPrefix(shape.keyPrefix() == null ? "" : shape.keyPrefix())
                    .setValueFieldsInclude(shape.valueProjection().length == physical.getFieldCount()
                            ? DecodingSpec.ValueFieldsInclude.ALL
                            : DecodingSpec.ValueFieldsInclude.EXCEPT_KEY);
        }
        return builder.build(output);
    }

    /** The fields of metadata columns, named so that no physical column can share the name. */
    static List<RowType.RowField> metadataFields(List<KafkaMetadata> metadata) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (KafkaMetadata m : metadata) {
            fields.add(new RowType.RowField("$metadata$" + m.key(), m.type()));
        }
        return fields;
    }

    /**
     * The columns a scan decodes and where the query's columns are among them.
     *
     * @param type the decoded row type (physical columns in declaration order, then the metadata columns and, for
     *     an upsert scan or a changelog value format, the row-kind column {@link #rowKindColumn})
     * @param columns for each projected field, its column in the decoded batches
     */
    record DecodedColumns(RowType type, int[] columns) {
        static DecodedColumns of(KafkaScanShape shape, int[] projectedFields, List<KafkaMetadata> metadata) {
            RowType physical = shape.physicalType();
            int[] order = fields(shape, projectedFields);
            List<RowType.RowField> fields = new ArrayList<>();
            for (int field : order) {
                fields.add(physical.getFields().get(field));
            }
            fields.addAll(metadataFields(metadata));
            if (shape.rowKinds()) {
                fields.add(new RowType.RowField(rowKindColumn(physical), new TinyIntType()));
            }
            int[] columns = new int[projectedFields.length + metadata.size()];
            for (int i = 0; i < projectedFields.length; i++) {
                columns[i] = Arrays.binarySearch(order, projectedFields[i]);
            }
            for (int i = 0; i < metadata.size(); i++) {
                columns[projectedFields.length + i] = order.length + i;
            }
            return new DecodedColumns(new RowType(false, fields), columns);
        }

        /**
         * The name of the row-kind column after the decoded ones, one no physical column has (a changelog format's
         * decoder refuses a name its row type has).
         */
        static String rowKindColumn(RowType physical) {
            return RowKindVector.columnBeside(physical.getFieldNames());
        }

        /**
         * The physical columns a query reading {@code projectedFields} produces, in table order: those, every key
         * column, and every value column unless the value format decodes by name (json) and the query reads one
         * (a json decoder is given every value column and checks those it does not produce).
         */
        static int[] fields(KafkaScanShape shape, int[] projectedFields) {
            TreeSet<Integer> decoded = new TreeSet<>();
            for (int field : projectedFields) {
                decoded.add(field);
            }
            for (int field : shape.keyProjection()) {
                decoded.add(field);
            }
            boolean someValue = false;
            for (int field : shape.valueProjection()) {
                someValue |= decoded.contains(field);
            }
            if (!someValue || !"json".equals(shape.valueFormat())) {
                for (int field : shape.valueProjection()) {
                    decoded.add(field);
                }
            }
            return decoded.stream().mapToInt(Integer::intValue).toArray();
        }

        /**
         * The physical columns the decoders plan for such a query (produced or checked), in table order: what its
         * admission is decided on. json plans every value column, as Flink's format converts them all.
         */
        static int[] planned(KafkaScanShape shape, int[] projectedFields) {
            if (!"json".equals(shape.valueFormat())) {
                return fields(shape, projectedFields);
            }
            TreeSet<Integer> planned = new TreeSet<>();
            for (int field : fields(shape, projectedFields)) {
                planned.add(field);
            }
            for (int field : shape.valueProjection()) {
                planned.add(field);
            }
            return planned.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
