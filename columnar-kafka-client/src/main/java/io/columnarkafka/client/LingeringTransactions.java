package io.columnarkafka.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts the open transactions of this sink's prefix that lie outside its current pool: ids {@code
 * <prefix>-<n>} with {@code n >=} the pool size, left by a writer that ran with a larger pool. The pool's own
 * ids are handled by {@code initTransactions} when the sink opens; these would otherwise hold back {@code
 * read_committed} consumers until {@code transaction.timeout.ms}. Each is fenced the same way: a producer
 * with that id calls {@code initTransactions}, which aborts the open transaction.
 */
final class LingeringTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(LingeringTransactions.class);

    private LingeringTransactions() {}

    /** The ids outside the pool whose transactions were aborted. */
    static List<String> abortOutsidePool(SinkSettings settings, Duration timeout) throws Exception {
        List<String> aborted = new ArrayList<>();
        List<TransactionListing> open;
        try (Admin admin = BrokerLimits.admin(settings, timeout)) {
            open = new ArrayList<>(admin.listTransactions(new ListTransactionsOptions()
                            .filterStates(List.of(TransactionState.ONGOING, TransactionState.PREPARE_ABORT,
                                    TransactionState.PREPARE_COMMIT)))
                    .all().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        }
        for (TransactionListing listing : open) {
            if (outsidePool(listing.transactionalId(), settings)) {
                try (KafkaProducer<byte[], byte[]> fencing = Producers.create(settings, listing.transactionalId())) {
                    fencing.initTransactions();
                }
                LOG.info("aborted the lingering transaction of {} (outside the pool of {})",
                        listing.transactionalId(), settings.poolSize);
                aborted.add(listing.transactionalId());
            }
        }
        return aborted;
    }

    private static boolean outsidePool(String transactionalId, SinkSettings settings) {
        String prefix = settings.transactionalIdPrefix + "-";
        if (!transactionalId.startsWith(prefix)) {
            return false;
        }
        String slot = transactionalId.substring(prefix.length());
        if (slot.isEmpty() || slot.length() > 9 || !slot.chars().allMatch(Character::isDigit)) {
            return false;
        }
        return Integer.parseInt(slot) >= settings.poolSize;
    }
}
