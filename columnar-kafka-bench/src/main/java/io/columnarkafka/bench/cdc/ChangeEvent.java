package io.columnarkafka.bench.cdc;

/**
 * One record of a Debezium topic of {@code orders}: a change event of one row ({@code before} and {@code after} as
 * Debezium fills them for its {@code op}) or the tombstone Debezium writes after a delete (no value, both null).
 *
 * @param sequence the record's place in the topic's fill order, from 0; Debezium's {@code ts_ms} and source position
 *     are derived from it
 */
record ChangeEvent(long sequence, Op op, long id, OrderRow before, OrderRow after) {
    /** Debezium's {@code op} codes, and the tombstone record, which has no value. */
    enum Op {
        /** A row read by the initial snapshot. */
        READ("r"),
        CREATE("c"),
        /** An update: before and after both present (the table's replica identity is full). */
        UPDATE("u"),
        DELETE("d"),
        TOMBSTONE(null);

        final String code;

        Op(String code) {
            this.code = code;
        }
    }
}
