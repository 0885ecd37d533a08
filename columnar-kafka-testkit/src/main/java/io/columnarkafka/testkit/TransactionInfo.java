package io.columnarkafka.testkit;

import java.util.Objects;

import org.apache.kafka.clients.admin.TransactionState;

/**
 * One transaction as the broker's transaction coordinator lists it ({@code Admin.listTransactions()}).
 *
 * @param transactionalId the producer's {@code transactional.id}
 * @param producerId      the producer id the coordinator assigned
 * @param state           the coordinator's state for it
 */
public record TransactionInfo(String transactionalId, long producerId, TransactionState state) {

    public TransactionInfo {
        Objects.requireNonNull(transactionalId, "transactionalId");
        Objects.requireNonNull(state, "state");
    }

    /**
     * Whether the transaction is still open: {@code ONGOING}, {@code PREPARE_COMMIT}, {@code PREPARE_ABORT} or
     * {@code PREPARE_EPOCH_FENCE}. Open transactions hold back the last stable offset, so {@code read_committed}
     * consumers do not see anything written after them. {@code EMPTY}, {@code COMPLETE_COMMIT},
     * {@code COMPLETE_ABORT} (and {@code UNKNOWN}) are not open.
     */
    public boolean isOpen() {
        return switch (state) {
            case ONGOING, PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE -> true;
            default -> false;
        };
    }

    /** Whether {@link #transactionalId()} starts with {@code prefix}. */
    public boolean hasPrefix(String prefix) {
        return transactionalId.startsWith(prefix);
    }
}
