package io.columnarkafka.format;

import io.columnarkafka.format.avro.AvroBatchDecoder;
import io.columnarkafka.format.avro.AvroBatchEncoder;
import io.columnarkafka.format.avro.AvroConfluentBatchDecoder;
import io.columnarkafka.format.avro.AvroConfluentBatchEncoder;
import io.columnarkafka.format.avro.AvroConfluentFormatOptions;
import io.columnarkafka.format.avro.AvroFormatOptions;
import io.columnarkafka.format.csv.CsvBatchDecoder;
import io.columnarkafka.format.csv.CsvBatchEncoder;
import io.columnarkafka.format.csv.CsvFormatOptions;
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.json.ChangelogJsonBatchEncoder;
import io.columnarkafka.format.json.BeforeAfterDecodeOptions;
import io.columnarkafka.format.json.BeforeAfterEvents;
import io.columnarkafka.format.json.BeforeAfterJsonBatchDecoder;
import io.columnarkafka.format.json.DataOldDecodeOptions;
import io.columnarkafka.format.json.DataOldEvents;
import io.columnarkafka.format.json.DataOldJsonBatchDecoder;
import io.columnarkafka.format.json.JsonBatchDecoder;
import io.columnarkafka.format.json.JsonBatchEncoder;
import io.columnarkafka.format.json.JsonDecodeOptions;
import io.columnarkafka.format.json.JsonFormatOptions;
import io.columnarkafka.format.protobuf.ProtobufBatchDecoder;
import io.columnarkafka.format.protobuf.ProtobufBatchEncoder;
import io.columnarkafka.format.protobuf.ProtobufDecodeOptions;
import io.columnarkafka.format.protobuf.ProtobufFormatOptions;
import io.columnarkafka.format.raw.RawBatchDecoder;
import io.columnarkafka.format.raw.RawBatchEncoder;
import io.columnarkafka.format.raw.RawFormatOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.RowType;

/** The formats this project encodes and decodes natively, by Flink's format identifier. */
public final class Formats {
    private Formats() {}

    /** Identifiers of the formats with a columnar encoder. */
    public static Set<String> supported() {
        return Set.of("json", "csv", "raw", "debezium-json", "canal-json", "maxwell-json", "ogg-json", "avro",
                "avro-confluent", "protobuf");
    }

    /**
     * Plans an encoder.
     *
     * @param format Flink's format identifier, e.g. {@code json}
     * @param projection the columns to write
     * @param options the format's options with Flink's keys, without the format prefix
     * @throws IllegalArgumentException for an unknown format, option or value, or a type the format
     *     does not support
     */
    public static BatchEncoder encoder(String format, Projection projection, Map<String, String> options) {
        switch (format) {
            case "json":
                return new JsonBatchEncoder(projection, JsonFormatOptions.fromMap(options));
            case "csv":
                return new CsvBatchEncoder(projection, CsvFormatOptions.fromMap(options));
            case "debezium-json":
            case "canal-json":
            case "maxwell-json":
            case "ogg-json":
                return new ChangelogJsonBatchEncoder(ChangelogEnvelope.of(format), projection, options);
            case "raw":
                return new RawBatchEncoder(projection, RawFormatOptions.fromMap(options));
            case "avro":
                return new AvroBatchEncoder(projection, AvroFormatOptions.fromMap(options));
            case "avro-confluent":
                return new AvroConfluentBatchEncoder(projection, AvroConfluentFormatOptions.fromMap(options));
            case "protobuf":
                return new ProtobufBatchEncoder(projection, ProtobufFormatOptions.fromMap(options));
            default:
                throw new IllegalArgumentException(
                        "format '" + format + "' has no columnar encoder; supported: " + supported());
        }
    }

    /** Identifiers of the formats with a columnar decoder. */
    public static Set<String> decodable() {
        return Set.of("raw", "json", "csv", "avro", "avro-confluent", "protobuf", "debezium-json", "ogg-json", "canal-json",
                "maxwell-json");
    }

    /**
     * Plans a decoder.
     *
     * @param format Flink's format identifier, e.g. {@code json}
     * @param rowType the fields to decode (by name for named formats), as Flink's format factory gets
     *     them after projection push-down; a changelog format's rows add the TINYINT column its option {@code
     *     row-kind.column} names ({@link BatchDecoder#rowType()})
     * @param options the format's options with Flink's keys, without the format prefix
     * @throws IllegalArgumentException for an unknown format, option or value, or a type the format
     *     does not support
     */
    public static BatchDecoder decoder(String format, RowType rowType, Map<String, String> options) {
        return decoder(format, rowType, rowType.getFieldNames(), options);
    }

    /**
     * Plans a decoder that is given the whole row its format reads ({@code formatType}, as Flink's format
     * factory gets it from a source that takes no projection) and produces the fields {@code produced}, in
     * {@code formatType}'s order. json, debezium-json and ogg-json check the other fields as Flink converts them
     * ({@code JsonBatchDecoder}, {@code BeforeAfterJsonBatchDecoder}); the others produce every field (avro-confluent
     * too: Flink's {@code kafka} source pushes no projection into its projectable registry format, whose reader schema
     * is then the whole row's).
     *
     * @throws IllegalArgumentException as {@link #decoder(String, RowType, Map)}, or if a positional format is
     *     asked to leave a field out
     */
    public static BatchDecoder decoder(String format, RowType formatType, List<String> produced,
                                       Map<String, String> options) {
        if (format.equals("json")) {
            return new JsonBatchDecoder(formatType, produced, JsonDecodeOptions.fromMap(options));
        }
        if (format.equals("debezium-json") || format.equals("ogg-json")) {
            BeforeAfterEvents events = BeforeAfterEvents.of(format);
            return new BeforeAfterJsonBatchDecoder(events, formatType, produced,
                    BeforeAfterDecodeOptions.fromMap(events, options));
        }
        if (!produced.equals(formatType.getFieldNames())) {
            throw new IllegalArgumentException("format '" + format + "' decodes every field of "
                    + formatType.asSummaryString() + " by position; it cannot produce only " + produced);
        }
        RowType rowType = formatType;
        switch (format) {
            case "raw":
                return new RawBatchDecoder(rowType, RawFormatOptions.fromMap(options));
            case "csv":
                return new CsvBatchDecoder(rowType, CsvFormatOptions.fromMap(options));
            case "avro":
                return new AvroBatchDecoder(rowType, AvroFormatOptions.fromMap(options));
            case "avro-confluent":
                return new AvroConfluentBatchDecoder(rowType, AvroConfluentFormatOptions.forDecoding(options));
            case "protobuf":
                return new ProtobufBatchDecoder(rowType, ProtobufDecodeOptions.fromMap(options));
            case "canal-json":
            case "maxwell-json":
                DataOldEvents dataOld = DataOldEvents.of(format);
                return new DataOldJsonBatchDecoder(dataOld, rowType, DataOldDecodeOptions.fromMap(dataOld, options));
            default:
                throw new IllegalArgumentException(
                        "format '" + format + "' has no columnar decoder; supported: " + decodable());
        }
    }
}
