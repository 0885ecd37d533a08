package io.columnarkafka.flink.table;

import io.columnarkafka.format.Formats;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL gate: formats whose columnar bytes are proven equal to Flink's through the SQL connectors
 * ({@code KafkaColumnarParityITCase} runs the same INSERT into {@code kafka} and {@code kafka-columnar} for
 * each, as value and as key format). A format is admitted only if it is here AND in {@link
 * Formats#supported()}; an encoder that lands in the format module without a SQL parity test falls back
 * with {@link #notGatedReason}.
 */
enum SqlFormat {
    JSON("json", false),
    CSV("csv", false),
    AVRO("avro", true);

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

    SqlFormat(String identifier, boolean declaredNullability) {
        this.identifier = identifier;
        this.declaredNullability = declaredNullability;
    }

    /** The gated format with this identifier, if it also has a columnar encoder. */
    static Optional<SqlFormat> of(String identifier) {
        if (!Formats.supported().contains(identifier)) {
            return Optional.empty();
        }
        for (SqlFormat format : values()) {
            if (format.identifier.equals(identifier)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /** Why {@code identifier} is not admitted through SQL (call when {@link #of} is empty). */
    static String notGatedReason(String identifier) {
        if (!Formats.supported().contains(identifier)) {
            return "no columnar encoder";
        }
        return NOT_GATED.getOrDefault(identifier, "not yet parity-tested through SQL");
    }

    /** The physical row type as this format must see it ({@code declared}: the sink's physical row type). */
    RowType rowType(RowType declared) {
        return declaredNullability ? declared : NullableTypes.deep(declared);
    }

    /** True if nulls are written whatever the declared nullability (see {@link #declaredNullability}). */
    boolean ignoresNullability() {
        return !declaredNullability;
    }
}
