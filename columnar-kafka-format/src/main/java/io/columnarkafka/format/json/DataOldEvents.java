package io.columnarkafka.format.json;

import java.nio.charset.StandardCharsets;

/**
 * The change events of Flink's {@code data}/{@code old} changelog formats, as their deserializers read them:
 * {@code data} holds the rows (a JSON array of them for Canal, one object for Maxwell), {@code old} the changed
 * fields' earlier values for an update, {@code type} the operation.
 */
public enum DataOldEvents {
    /**
     * {@code CanalJsonDeserializationSchema}: {@code type} INSERT, UPDATE, DELETE, or CREATE (a DDL event, skipped);
     * {@code data} and {@code old} arrays; {@code database.include} and {@code table.include} filters.
     */
    CANAL("canal-json", "Canal", true, "INSERT", "UPDATE", "DELETE", "CREATE"),
    /** {@code MaxwellJsonDeserializationSchema}: {@code type} insert, update, delete; {@code data} and {@code old} objects. */
    MAXWELL("maxwell-json", "Maxwell", false, "insert", "update", "delete", null);

    /** The operations, in the order of {@link #opBytes}. */
    static final int INSERT = 0;
    static final int UPDATE = 1;
    static final int DELETE = 2;
    static final int DDL = 3;

    final String identifier;
    /** The name in Flink's messages ("Corrupt Canal JSON message"). */
    final String product;
    /** Whether {@code data} and {@code old} are arrays of rows (Canal) or one row each (Maxwell). */
    final boolean rowArrays;
    /** The UTF-8 bytes of the {@code type} values INSERT, UPDATE, DELETE and, if the format has one, DDL. */
    final byte[][] opBytes;

    DataOldEvents(String identifier, String product, boolean rowArrays, String insert, String update, String delete,
            String ddl) {
        this.identifier = identifier;
        this.product = product;
        this.rowArrays = rowArrays;
        String[] ops = ddl == null ? new String[] {insert, update, delete} : new String[] {insert, update, delete, ddl};
        this.opBytes = new byte[ops.length][];
        for (int i = 0; i < ops.length; i++) {
            opBytes[i] = ops[i].getBytes(StandardCharsets.UTF_8);
        }
    }

    public String identifier() {
        return identifier;
    }

    /** Whether the format filters events by their {@code database} and {@code table} (Canal's {@code *.include}). */
    boolean hasFilters() {
        return this == CANAL;
    }

    /** The events of Flink's format {@code identifier}, or null if it is not a data/old format. */
    public static DataOldEvents of(String identifier) {
        for (DataOldEvents events : values()) {
            if (events.identifier.equals(identifier)) {
                return events;
            }
        }
        return null;
    }
}
