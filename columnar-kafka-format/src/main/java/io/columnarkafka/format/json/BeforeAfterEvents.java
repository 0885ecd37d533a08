package io.columnarkafka.format.json;

/**
 * The change events of Flink's before/after changelog formats, as their deserializers read them: the field
 * naming the operation and its values, and the words of their messages.
 */
public enum BeforeAfterEvents {
    /** {@code DebeziumJsonDeserializationSchema}: {@code op} c (create) or r (snapshot read), u, d. */
    DEBEZIUM("debezium-json", "Debezium", "op", "cr", 'u', 'd', true),
    /** {@code OggJsonDeserializationSchema}: {@code op_type} I, U, D. */
    OGG("ogg-json", "Ogg", "op_type", "I", 'U', 'D', false);

    final String identifier;
    /** The name in Flink's messages ("Corrupt Debezium JSON message"). */
    final String product;
    final String opField;
    final byte[] opFieldBytes;
    /** The one-character operations that emit {@code after} as an INSERT. */
    final String insertOps;
    final char updateOp;
    final char deleteOp;
    /** Whether the format has {@code schema-include} (the event under {@code payload}). */
    final boolean hasSchemaInclude;

    BeforeAfterEvents(String identifier, String product, String opField, String insertOps, char updateOp,
            char deleteOp, boolean hasSchemaInclude) {
        this.identifier = identifier;
        this.product = product;
        this.opField = opField;
        this.opFieldBytes = opField.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        this.insertOps = insertOps;
        this.updateOp = updateOp;
        this.deleteOp = deleteOp;
        this.hasSchemaInclude = hasSchemaInclude;
    }

    public String identifier() {
        return identifier;
    }

    /** The events of Flink's format {@code identifier}, or null if it is not a before/after format. */
    public static BeforeAfterEvents of(String identifier) {
        for (BeforeAfterEvents events : values()) {
            if (events.identifier.equals(identifier)) {
                return events;
            }
        }
        return null;
    }
}
