package io.columnarkafka.bench.sink;

import java.util.Locale;

/** The sink benchmark's variants, in the order the issue lists them. */
enum Variant {
    STOCK_JSON("a", "stock KafkaSink + Flink JsonRowDataSerializationSchema on RowData", true),
    COLUMNAR("b", "Arrow batches -> ColumnarKafkaSink (json)", true),
    PREBUILT_BYTES("c", "stock KafkaSink handing out pre-built JSON bytes (serializer ceiling)", true),
    BARE_PRODUCER("d", "2 bare transactional KafkaProducers in 2 threads, commit every 1 s (sink ceiling)", false);

    private final String letter;
    private final String description;
    private final boolean flinkJob;

    Variant(String letter, String description, boolean flinkJob) {
        this.letter = letter;
        this.description = description;
        this.flinkJob = flinkJob;
    }

    String letter() {
        return letter;
    }

    String description() {
        return description;
    }

    /** True for the variants that run as a Flink job, where object reuse is a setting. */
    boolean flinkJob() {
        return flinkJob;
    }

    static Variant byLetter(String letter) {
        for (Variant v : values()) {
            if (v.letter.equals(letter.toLowerCase(Locale.ROOT))) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + letter + "': use a, b, c or d");
    }
}
