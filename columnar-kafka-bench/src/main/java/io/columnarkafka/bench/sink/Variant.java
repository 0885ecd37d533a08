package io.columnarkafka.bench.sink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The sink benchmark's variants: the DataStream ones in the order the issue lists them, then the SQL ones. */
enum Variant {
    STOCK_JSON("a", "stock KafkaSink + Flink JsonRowDataSerializationSchema on RowData", Kind.DATASTREAM),
    COLUMNAR("b", "Arrow batches -> ColumnarKafkaSink (json)", Kind.DATASTREAM),
    PREBUILT_BYTES("c", "stock KafkaSink handing out pre-built JSON bytes (serializer ceiling)", Kind.DATASTREAM),
    BARE_PRODUCER("d", "2 bare transactional KafkaProducers in 2 threads, commit every 1 s (sink ceiling)", Kind.BARE),
    SQL_KAFKA("sql-kafka", "SQL INSERT from datagen into 'connector' = 'kafka' (json, exactly-once)", Kind.SQL),
    SQL_COLUMNAR("sql-columnar", "SQL INSERT from datagen into 'connector' = 'kafka-columnar' (json, exactly-once)",
            Kind.SQL),
    SQL_BLACKHOLE("sql-blackhole", "SQL INSERT from datagen into 'connector' = 'blackhole' (the upstream's cost)",
            Kind.SQL);

    /** How a variant runs: a DataStream job (object reuse is a setting), bare producers, or a SQL INSERT. */
    enum Kind { DATASTREAM, BARE, SQL }

    /** What {@code --variants sql} stands for. */
    static final String SQL_GROUP = "sql";

    private final String letter;
    private final String description;
    private final Kind kind;

    Variant(String letter, String description, Kind kind) {
        this.letter = letter;
        this.description = description;
        this.kind = kind;
    }

    String letter() {
        return letter;
    }

    String description() {
        return description;
    }

    Kind kind() {
        return kind;
    }

    /** True for the variants that run as a Flink job (DataStream or SQL). */
    boolean flinkJob() {
        return kind != Kind.BARE;
    }

    /** True for the DataStream jobs, where the benchmark runs object reuse off and on. */
    boolean hasObjectReuseSetting() {
        return kind == Kind.DATASTREAM;
    }

    /** True if the variant writes to Kafka (all but the blackhole), so its topic is read back and verified. */
    boolean writesKafka() {
        return this != SQL_BLACKHOLE;
    }

    static Variant byLetter(String letter) {
        for (Variant v : values()) {
            if (v.letter.equals(letter.toLowerCase(Locale.ROOT))) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + letter + "': use a, b, c, d, "
                + String.join(", ", Arrays.stream(values()).filter(v -> v.kind == Kind.SQL).map(Variant::letter).toList())
                + " or sql (all three SQL variants)");
    }

    /** The variants a comma-separated {@code --variants} value names, in declaration order. */
    static List<Variant> parseList(String value) {
        List<Variant> variants = new ArrayList<>();
        for (String name : value.split(",")) {
            String trimmed = name.trim().toLowerCase(Locale.ROOT);
            if (trimmed.equals(SQL_GROUP)) {
                Arrays.stream(values()).filter(v -> v.kind == Kind.SQL).forEach(variants::add);
            } else {
                variants.add(byLetter(trimmed));
            }
        }
        return variants.stream().sorted().distinct().toList();
    }
}
