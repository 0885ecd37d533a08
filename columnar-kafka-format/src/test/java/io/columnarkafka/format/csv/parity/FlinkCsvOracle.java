package io.columnarkafka.format.csv.parity;

import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.ParityCheck;
import java.util.Map;
import org.apache.commons.text.StringEscapeUtils;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.csv.CsvRowDataDeserializationSchema;
import org.apache.flink.formats.csv.CsvRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The expected bytes: Flink's own {@link CsvRowDataSerializationSchema} from flink-csv 2.2.0 (flink-csv
 * 2.2.1 was never published to Maven Central; 2.2.0 is the 2.2 line's release), configured from the
 * options the way {@code CsvFormatFactory} configures it, read straight from the map.
 */
public final class FlinkCsvOracle {
    private FlinkCsvOracle() {}

    public static ParityCheck.Oracle of(RowType rowType, Map<String, String> options) {
        CsvRowDataSerializationSchema.Builder builder = new CsvRowDataSerializationSchema.Builder(rowType);
        if (options.containsKey("field-delimiter")) {
            builder.setFieldDelimiter(StringEscapeUtils.unescapeJava(options.get("field-delimiter")).charAt(0));
        }
        if (options.containsKey("array-element-delimiter")) {
            builder.setArrayElementDelimiter(options.get("array-element-delimiter"));
        }
        if (Boolean.parseBoolean(options.get("disable-quote-character"))) {
            builder.disableQuoteCharacter();
        }
        if (options.containsKey("quote-character")) {
            builder.setQuoteCharacter(options.get("quote-character").charAt(0));
        }
        if (options.containsKey("escape-character")) {
            builder.setEscapeCharacter(options.get("escape-character").charAt(0));
        }
        if (options.containsKey("null-literal")) {
            builder.setNullLiteral(options.get("null-literal"));
        }
        if (options.containsKey("write-bigdecimal-in-scientific-notation")) {
            builder.setWriteBigDecimalInScientificNotation(
                    Boolean.parseBoolean(options.get("write-bigdecimal-in-scientific-notation")));
        }
        CsvRowDataSerializationSchema schema = builder.build();
        try {
            schema.open(null); // open() only builds the CsvMapper; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema::serialize;
    }

    /** The parity check of the {@code csv} encoder against this oracle. */
    public static final ParityCheck CSV = new ParityCheck("csv", FlinkCsvOracle::of);

    /**
     * Flink's {@link CsvRowDataDeserializationSchema}, configured from the options as {@code CsvFormatFactory}
     * configures it for a source.
     */
    public static DeserializationSchema<RowData> deserializer(RowType rowType, Map<String, String> options) {
        CsvRowDataDeserializationSchema.Builder builder =
                new CsvRowDataDeserializationSchema.Builder(rowType, InternalTypeInfo.of(rowType));
        if (options.containsKey("field-delimiter")) {
            builder.setFieldDelimiter(StringEscapeUtils.unescapeJava(options.get("field-delimiter")).charAt(0));
        }
        if (options.containsKey("allow-comments")) {
            builder.setAllowComments(Boolean.parseBoolean(options.get("allow-comments")));
        }
        if (options.containsKey("array-element-delimiter")) {
            builder.setArrayElementDelimiter(options.get("array-element-delimiter"));
        }
        if (Boolean.parseBoolean(options.get("disable-quote-character"))) {
            builder.disableQuoteCharacter();
        }
        if (options.containsKey("quote-character")) {
            builder.setQuoteCharacter(options.get("quote-character").charAt(0));
        }
        if (options.containsKey("escape-character")) {
            builder.setEscapeCharacter(options.get("escape-character").charAt(0));
        }
        if (options.containsKey("null-literal")) {
            builder.setNullLiteral(options.get("null-literal"));
        }
        if (options.containsKey("ignore-parse-errors")) {
            builder.setIgnoreParseErrors(Boolean.parseBoolean(options.get("ignore-parse-errors")));
        }
        CsvRowDataDeserializationSchema schema = builder.build();
        try {
            schema.open(null); // open() only builds the CsvMapper reader; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /** The parity check of the {@code csv} decoder against Flink's deserializer. */
    public static final DecoderParityCheck CSV_DECODE = new DecoderParityCheck("csv", FlinkCsvOracle::deserializer);
}
