package io.columnarkafka.client.decode;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.json.ChangelogJsonBatchEncoder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * What a reader decodes, as Flink's Kafka table source splits it: the produced row type, the value
 * format over the value fields and the optional key format over the key fields (named without the key
 * fields prefix), with the positions of both in the produced row ({@code DynamicKafkaDeserializationSchema}'s
 * key and value projections). With {@link ValueFieldsInclude#ALL} the value holds every field and, as in
 * Flink, its key fields win over the key's. The last fields of the row may hold Kafka record metadata
 * ({@link KafkaMetadata}), as Flink's source appends its metadata columns after the physical ones.
 *
 * <p>In upsert mode (Flink's {@code upsert-kafka} source) a record with a null value (a tombstone) is a DELETE row
 * holding its key fields and nulls elsewhere, every other row an INSERT, and the row's last field is the row-kind
 * column ({@link io.columnarkafka.format.arrow.RowKindVector}, TINYINT) holding each row's kind.
 *
 * <p>A changelog value format ({@link #valueFormatGivesRowKinds}: debezium-json, canal-json, maxwell-json, ogg-json)
 * gives each row's kind itself, and a record may give no row, one or more (an update's UPDATE_BEFORE and
 * UPDATE_AFTER; the rows of a Canal event's {@code data} array): the row's last field is the row-kind column then
 * too, which the value decoder fills (its {@code row-kind.column} option names it).
 */
public final class DecodingSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Flink's {@code value.fields-include}. */
    public enum ValueFieldsInclude { ALL, EXCEPT_KEY }

    private final RowType rowType;
    private final String valueFormat;
    private final Map<String, String> valueOptions;
    private final String keyFormat;
    private final Map<String, String> keyOptions;
    private final int[] keyProjection;
    private final int[] valueProjection;
    private final RowType keyType;
    private final RowType valueType;
    /** The whole row the value format converts, of which {@link #valueType} is produced. */
    private final RowType valueFormatType;
    private final List<KafkaMetadata> metadata;
    private final boolean upsert;
    /** Whether the value format gives the row kinds ({@link #valueFormatGivesRowKinds}). */
    private final boolean valueRowKinds;

    public DecodingSpec(
            RowType rowType,
            String valueFormat,
            Map<String, String> valueOptions,
            String keyFormat,
            Map<String, String> keyOptions,
            List<String> keyFields,
            String keyFieldsPrefix,
            ValueFieldsInclude include,
            List<KafkaMetadata> metadata,
            boolean upsert,
            RowType valueFormatType) {
        this.rowType = rowType;
        this.metadata = List.copyOf(metadata);
        this.upsert = upsert;
        this.valueRowKinds = valueFormatGivesRowKinds(valueFormat);
        require(!(upsert && valueRowKinds), "upsert mode takes an insert-only value format, as Flink's upsert-kafka"
                + " source; " + valueFormat + " gives row kinds");
        int physicalFields = rowType.getFieldCount() - metadata.size() - (rowKinds() ? 1 : 0);
        if (rowKinds()) {
            require(!upsert || keyFormat != null, "upsert mode needs key fields, as Flink's upsert-kafka source");
            require(rowType.getFieldCount() > 0 && rowType.getTypeAt(rowType.getFieldCount() - 1).is(LogicalTypeRoot.TINYINT),
                    (upsert ? "upsert mode" : "the changelog format " + valueFormat) + " needs a last TINYINT field for"
                            + " the row kinds, not " + rowType.asSummaryString());
        }
        require(physicalFields >= 0, "metadata " + metadata + " needs as many last fields of " + rowType.asSummaryString());
        for (int i = 0; i < metadata.size(); i++) {
            LogicalType declared = rowType.getTypeAt(physicalFields + i);
            require(declared.equals(metadata.get(i).type()), "metadata '" + metadata.get(i).key() + "' is "
                    + metadata.get(i).type().asSummaryString() + ", not " + declared.asSummaryString());
        }
        this.valueFormat = valueFormat;
        this.valueOptions = Map.copyOf(valueOptions);
        this.keyFormat = keyFormat;
        this.keyOptions = keyOptions == null ? Map.of() : Map.copyOf(keyOptions);
        this.keyProjection = new int[keyFields.size()];
        List<RowType.RowField> keyRow = new ArrayList<>();
        for (int i = 0; i < keyProjection.length; i++) {
            String field = keyFields.get(i);
            int index = rowType.getFieldIndex(field);
            require(index >= 0, "key field '" + field + "' is not a field of " + rowType.asSummaryString());
            require(field.startsWith(keyFieldsPrefix),
                    "key field '" + field + "' does not start with the key fields prefix '" + keyFieldsPrefix + "'");
            keyProjection[i] = index;
            keyRow.add(new RowType.RowField(field.substring(keyFieldsPrefix.length()), rowType.getTypeAt(index)));
        }
        List<Integer> values = new ArrayList<>();
        List<RowType.RowField> valueRow = new ArrayList<>();
        for (int i = 0; i < physicalFields; i++) {
            if (include == ValueFieldsInclude.ALL || !contains(keyProjection, i)) {
                values.add(i);
                valueRow.add(new RowType.RowField(rowType.getFieldNames().get(i), rowType.getTypeAt(i)));
            }
        }
        require(keyFieldsPrefix.isEmpty() || include == ValueFieldsInclude.EXCEPT_KEY,
                "a key fields prefix needs value fields include EXCEPT_KEY, as in Flink");
        this.valueProjection = values.stream().mapToInt(Integer::intValue).toArray();
        this.keyType = keyFormat == null ? null : new RowType(false, keyRow);
        this.valueType = new RowType(false, valueRow);
        this.valueFormatType = valueFormatType == null ? valueType : valueFormatType;
        requireProducedIn(valueType, this.valueFormatType);
    }

    /** Every field of {@code produced} is in {@code whole} with its type, in the same order. */
    private static void requireProducedIn(RowType produced, RowType whole) {
        int at = 0;
        for (RowType.RowField field : produced.getFields()) {
            while (at < whole.getFieldCount() && !whole.getFieldNames().get(at).equals(field.getName())) {
                at++;
            }
            require(at < whole.getFieldCount() && whole.getTypeAt(at).equals(field.getType()),
                    "value field '" + field.getName() + "' " + field.getType().asSummaryString() + " is not, in order,"
                            + " a field of the value format's row " + whole.asSummaryString());
            at++;
        }
    }

    private static boolean contains(int[] indexes, int index) {
        for (int i : indexes) {
            if (i == index) {
                return true;
            }
        }
        return false;
    }

    /** The row type of the produced batches. */
    public RowType rowType() {
        return rowType;
    }

    public String valueFormat() {
        return valueFormat;
    }

    /**
     * Plans the value decoder (once per reader): given the value format's whole row, producing the value fields
     * (and, for a changelog format, the row-kind column after them).
     */
    public BatchDecoder valueDecoder() {
        Map<String, String> options = valueRowKinds
                ? valueDecoderOptions(valueOptions, rowType.getFieldNames().get(rowType.getFieldCount() - 1))
                : valueOptions;
        return Formats.decoder(valueFormat, valueFormatType, valueType.getFieldNames(), options);
    }

    /**
     * Whether Flink's format {@code format} gives the row kinds of its rows (a changelog format, whose decoding
     * format's changelog mode is not insert-only: debezium-json, canal-json, maxwell-json, ogg-json). Its decoder
     * writes them to the TINYINT column its option {@code row-kind.column} names.
     */
    public static boolean valueFormatGivesRowKinds(String format) {
        return ChangelogEnvelope.of(format) != null;
    }

    /** A changelog format's {@code options} with its decoder's row-kind column {@code rowKinds}. */
    public static Map<String, String> valueDecoderOptions(Map<String, String> options, String rowKinds) {
        Map<String, String> withKinds = new HashMap<>(options);
        withKinds.put(ChangelogJsonBatchEncoder.ROW_KIND_COLUMN, rowKinds);
        return withKinds;
    }

    /** Plans the key decoder, or null without key fields. */
    public BatchDecoder keyDecoder() {
        return keyFormat == null ? null : Formats.decoder(keyFormat, keyType, keyOptions);
    }

    /** The Kafka record metadata in the last fields of the produced row, in order. */
    public List<KafkaMetadata> metadata() {
        return metadata;
    }

    /** Whether this is Flink's upsert mode: tombstones are DELETE rows, each row's kind in the last field. */
    public boolean upsert() {
        return upsert;
    }

    /** Whether the value format gives each row's kind, written by its decoder to the last field. */
    public boolean valueRowKinds() {
        return valueRowKinds;
    }

    /** Whether the row's last field holds each row's kind (upsert mode, or a changelog value format). */
    public boolean rowKinds() {
        return upsert || valueRowKinds;
    }

    /** Position in the produced row of each key field. */
    public int[] keyProjection() {
        return keyProjection.clone();
    }

    /** Position in the produced row of each value field. */
    public int[] valueProjection() {
        return valueProjection.clone();
    }

    /** Type of field {@code index} of the produced row. */
    public LogicalType fieldType(int index) {
        return rowType.getTypeAt(index);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
