package io.columnarkafka.flink.table;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.avro.AvroConfluentFormatOptions;
import io.columnarkafka.format.avro.AvroFormatOptions;
import io.columnarkafka.format.csv.CsvFormatOptions;
import io.columnarkafka.format.json.ChangelogEnvelope;
import io.columnarkafka.format.json.ChangelogJsonBatchEncoder;
import io.columnarkafka.format.json.JsonFormatOptions;
import io.columnarkafka.format.protobuf.ProtobufFormatOptions;
import io.columnarkafka.format.raw.RawFormatOptions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL gate: formats whose columnar bytes are proven equal to Flink's through the SQL connectors
 * ({@code KafkaColumnarParityITCase} runs the same INSERT into {@code kafka} and {@code kafka-columnar} for
 * each, as value and as key format). A format is admitted only if it is here AND in {@link
 * Formats#supported()}; an encoder that lands in the format module without a SQL parity test falls back
 * with {@link #notGatedReason}.
 */
enum SqlFormat {
    JSON("json", false, JsonFormatOptions::fromMap),
    CSV("csv", false, CsvFormatOptions::fromMap),
    RAW("raw", false, RawFormatOptions::fromMap),
    AVRO("avro", true, AvroFormatOptions::fromMap),
    /** Reads each row's kind from a column the SQL sink adds to the batch ({@link #readsRowKind}), as do the next. */
    DEBEZIUM_JSON("debezium-json", false, ChangelogEnvelope.DEBEZIUM::jsonOptions),
    CANAL_JSON("canal-json", false, ChangelogEnvelope.CANAL::jsonOptions),
    MAXWELL_JSON("maxwell-json", false, ChangelogEnvelope.MAXWELL::jsonOptions),
    OGG_JSON("ogg-json", false, ChangelogEnvelope.OGG::jsonOptions),
    PROTOBUF("protobuf", false, ProtobufFormatOptions::fromMap),
    /** Scans only: its sink stays {@link #NOT_GATED}. */
    AVRO_CONFLUENT("avro-confluent", true, SqlFormat::avroConfluentScanOptions);

    /**
     * The scan gate: formats whose columnar decoders are proven equal to Flink's deserializers through the
     * SQL scan parity tests (the same SELECT over the same topic through {@code kafka} and {@code
     * kafka-columnar}: {@code KafkaColumnarScanParityITCase} for json and raw, {@code
     * ScanFormatParityITCase} for csv, avro and protobuf, {@code ChangelogScanParityITCase} for debezium-json,
     * ogg-json, canal-json and maxwell-json, rows compared with their kinds; {@code AvroConfluentScanITCase} for
     * avro-confluent, whose stock scan cannot run here, against Flink's deserializer on the topic's records). A format
     * is read natively only if it is here AND in {@link Formats#decodable()}.
     */
    private static final Set<SqlFormat> SCAN_PROVEN = EnumSet.of(JSON, RAW, CSV, AVRO, PROTOBUF, DEBEZIUM_JSON, OGG_JSON,
            CANAL_JSON, MAXWELL_JSON, AVRO_CONFLUENT);

    /** Formats with a columnar encoder that are deliberately not gated, and why. */
    private static final Map<String, String> NOT_GATED = Map.of(
            "avro-confluent", "Flink's registry client is not on Maven Central, no SQL oracle");

    final String identifier;
    /**
     * Whether the bytes depend on declared nullability: Avro's writer schema puts a nullable type in a
     * {@code ["null", T]} union (a union branch byte per value) and a NOT NULL one not, so such a format is
     * given the row type exactly as Flink's {@code KafkaDynamicSink} gives it to its format (the projected
     * physical row, itself NOT NULL). The other formats write a null for any null whatever the declaration,
     * so they get {@link NullableTypes#deep}.
     */
    private final boolean declaredNullability;

    /** Reads the format's options, throwing {@link IllegalArgumentException} for any it does not reproduce. */
    private final Consumer<Map<String, String>> options;

    SqlFormat(String identifier, boolean declaredNullability, Consumer<Map<String, String>> options) {
        this.identifier = identifier;
        this.declaredNullability = declaredNullability;
        this.options = options;
    }

    /** The gated format with this identifier, if it also has a columnar encoder. */
    static Optional<SqlFormat> of(String identifier) {
        if (!Formats.supported().contains(identifier) || NOT_GATED.containsKey(identifier)) {
            return Optional.empty();
        }
        for (SqlFormat format : values()) {
            if (format.identifier.equals(identifier)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /** The scan-gated format with this identifier, if it also has a columnar decoder. */
    static Optional<SqlFormat> forScan(String identifier) {
        if (!Formats.decodable().contains(identifier)) {
            return Optional.empty();
        }
        for (SqlFormat format : SCAN_PROVEN) {
            if (format.identifier.equals(identifier)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /** Why {@code identifier} is not read natively by a SQL scan (call when {@link #forScan} is empty). */
    static String notScanGatedReason(String identifier) {
        return Formats.decodable().contains(identifier) ? "not yet parity-tested through SQL scans" : "no columnar decoder";
    }

    /** Why {@code identifier} is not admitted through SQL (call when {@link #of} is empty). */
    static String notGatedReason(String identifier) {
        if (!Formats.supported().contains(identifier)) {
            return "no columnar encoder";
        }
        return NOT_GATED.getOrDefault(identifier, "not yet parity-tested through SQL");
    }

    /**
     * avro-confluent's options as a scan reproduces them: Flink 2.2.1's keys ({@code schema}, the reader schema,
     * included: the decoder then refuses at planning what Flink's factory refuses) less {@code properties.*} (which
     * {@link AvroConfluentFormatOptions} refuses), the TLS ones (the client reads them, but no
     * test runs it against a TLS registry) and {@code auto.register.schemas} (not an option of Flink 2.2.1's factory,
     * which refuses it).
     */
    private static void avroConfluentScanOptions(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (key.startsWith("ssl.")) {
                throw new IllegalArgumentException("'" + key + "': a TLS registry is not tested with the columnar decoder");
            }
            if (key.equals("auto.register.schemas")) {
                throw new IllegalArgumentException("'" + key + "' is not an option of Flink 2.2.1's avro-confluent");
            }
        }
        AvroConfluentFormatOptions.forDecoding(options);
    }

    /**
     * Checks the format's options alone, before any type is planned (so an option problem is reported as
     * such even for a format that also needs particular columns, like raw's single column).
     *
     * @throws IllegalArgumentException for an unknown option or value, or one the encoder does not write
     */
    void checkOptions(Map<String, String> formatOptions) {
        options.accept(formatOptions);
    }

    /** The physical row type as this format must see it ({@code declared}: the sink's physical row type). */
    RowType rowType(RowType declared) {
        return declaredNullability ? declared : NullableTypes.deep(declared);
    }

    /**
     * True if the format writes each row according to its {@code RowKind} (a changelog format): its encoder
     * reads the kind from a TINYINT column of the batch ({@link ChangelogJsonBatchEncoder#ROW_KIND_COLUMN}).
     */
    boolean readsRowKind() {
        return ChangelogEnvelope.of(identifier) != null;
    }

    /** True if nulls are written whatever the declared nullability (see {@link #declaredNullability}). */
    boolean ignoresNullability() {
        return !declaredNullability;
    }
}
