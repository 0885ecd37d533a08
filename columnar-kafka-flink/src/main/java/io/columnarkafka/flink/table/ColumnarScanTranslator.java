package io.columnarkafka.flink.table;

import io.columnarkafka.flink.source.ColumnarKafkaSource;
import io.columnarkafka.flink.source.KafkaMetadata;
import io.columnarkafka.flink.source.BatchOutputFactory;
import io.columnarkafka.flink.source.DecodingSpec;
import io.columnarkafka.format.arrow.RowKindVector;
import io.columnarkafka.format.json.JsonDecodeOptions;
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
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;

/**
 * Builds the runtime of an admitted scan: a {@link ColumnarKafkaSource} with Flink's own Kafka settings
 * ({@link FlinkKafkaScan}), decoding the columns the query reads, whose per-batch output hands the planner
 * row views ({@link RowViewOutput}); an upsert scan's batches carry each row's kind, which the views take.
 *
 * <p>What is decoded: the projected columns, plus every key column (a record gives a row only if its key
 * does, as in Flink, so the key is decoded even when the query does not read it). A format that does not
 * decode by field name ({@code raw}: one column; csv and avro, positional) and a projection with no value column
 * decode every value column; json decodes the unread value columns that could change the rows Flink's source
 * gives ({@link DecodedColumns#fields}). Metadata columns follow the decoded ones, filled by the source from each
 * row's record.
 */
final class ColumnarScanTranslator {
    private ColumnarScanTranslator() {}

    static ScanRuntimeProvider provider(
            KafkaScanShape shape,
            FlinkKafkaScan kafka,
            int[] projectedFields,
            List<KafkaMetadata> metadata,
            TypeInformation<RowData> producedType,
            WatermarkStrategy<RowData> watermarks,
            String operatorName) {
        DecodedColumns decoded = DecodedColumns.of(shape, projectedFields, metadata);
        ColumnarKafkaSource<RowData> source = source(shape, kafka, decoded.type(), metadata,
                new RowViewOutput(decoded.type(), decoded.columns(), shape.upsertMode(), producedType));
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
     * A {@link ColumnarKafkaSource} with Flink's Kafka settings decoding {@code decodedType}, whose last fields
     * hold {@code metadata}, whose batches go to {@code output}.
     */
    static <T> ColumnarKafkaSource<T> source(KafkaScanShape shape, FlinkKafkaScan kafka, RowType decodedType,
            List<KafkaMetadata> metadata, BatchOutputFactory<T> output) {
        RowType physical = shape.physicalType();
        ColumnarKafkaSource.Builder builder = ColumnarKafkaSource.builder()
                .setProperties(kafka.properties())
                .setStartingOffsets(kafka.startingOffsets())
                .setRowType(decodedType)
                .setMetadata(metadata)
                .setUpsertMode(shape.upsertMode())
                .setValueFormat(shape.valueFormat(), shape.valueFormatOptions());
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
     *     an upsert scan, the row-kind column {@link RowKindVector#SCAN_COLUMN})
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
            if (shape.upsertMode()) {
                fields.add(new RowType.RowField(RowKindVector.SCAN_COLUMN, new TinyIntType()));
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

        /** The physical columns decoded for a query reading {@code projectedFields}, in table order. */
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
            boolean byName = someValue && "json".equals(shape.valueFormat());
            JsonDecodeOptions json = byName ? JsonDecodeOptions.fromMap(shape.valueFormatOptions()) : null;
            for (int field : shape.valueProjection()) {
                if (!byName || jsonDecodesUnread(json, shape.physicalType().getTypeAt(field))) {
                    decoded.add(field);
                }
            }
            return decoded.stream().mapToInt(Integer::intValue).toArray();
        }

        /**
         * Whether a json value column the query does not read is decoded all the same, because Flink's {@code
         * kafka} source (which takes no projection) deserializes it and it can change the rows: with {@code
         * fail-on-missing-field} its absence fails the record; without {@code ignore-parse-errors} a value Flink
         * cannot convert fails it (every JSON value converts to a string, so CHAR and VARCHAR never do; with the
         * option such a value is a null field); a DECIMAL anywhere in the row makes Flink's mapper read floats as
         * {@code BigDecimal}, which changes the text of a string column holding an object or array
         * ({@code bigDecimalFloats} of the decoder).
         */
        private static boolean jsonDecodesUnread(JsonDecodeOptions options, LogicalType type) {
            return options.failOnMissingField()
                    || NullableTypes.contains(type, t -> t.is(LogicalTypeRoot.DECIMAL))
                    || !options.ignoreParseErrors() && !type.is(LogicalTypeFamily.CHARACTER_STRING);
        }
    }
}
