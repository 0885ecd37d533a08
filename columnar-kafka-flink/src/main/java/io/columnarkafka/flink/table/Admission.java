package io.columnarkafka.flink.table;

import java.util.Objects;

/**
 * The planning-time decision for one Kafka table sink: either admitted to the columnar path (with a
 * description of what is encoded natively) or a fallback to Flink's stock sink, with its reason.
 */
public record Admission(FallbackReason reason, String detail) {

    public Admission {
        Objects.requireNonNull(detail, "detail");
    }

    public static Admission admitted(String what) {
        return new Admission(null, what);
    }

    public static Admission fallback(FallbackReason reason, String detail) {
        return new Admission(Objects.requireNonNull(reason, "reason"), detail);
    }

    public boolean isAdmitted() {
        return reason == null;
    }

    /**
     * {@code admitted: json value} or {@code fallback: UNSUPPORTED_VALUE_FORMAT debezium-avro-confluent: no
     * columnar encoder}.
     */
    public String describe() {
        return isAdmitted() ? "admitted: " + detail : "fallback: " + reason + " " + detail;
    }
}
