package io.columnarkafka.client;

import java.io.Serializable;
import java.util.Objects;

/**
 * A prepared (flushed, not yet committed) epoch: everything needed to commit or abort its Kafka transaction
 * from another process, as Flink's Kafka committer resumes one. The caller persists it with its checkpoint
 * (Java serialization, or the one-line {@link #toString()} form read back by {@link #parse}).
 *
 * @param epoch the caller's epoch number
 * @param transactionalId the transactional id that wrote it
 * @param producerId the producer id the broker assigned to that transactional id
 * @param producerEpoch the producer epoch of the transaction
 * @param transactionV2 whether the transaction runs Kafka's transaction protocol version 2 (KIP-890), so a
 *     resumed producer ends it the way it was started
 * @param records records written in the epoch; an epoch with none has no transaction on the broker to end
 */
public record EpochDescriptor(
        long epoch, String transactionalId, long producerId, short producerEpoch, boolean transactionV2,
        long records) implements Serializable {
    private static final String FORM =
            "epoch=%d producerId=%d producerEpoch=%d tv2=%b records=%d transactionalId=%s";

    public EpochDescriptor {
        Objects.requireNonNull(transactionalId, "transactionalId");
        if (producerId < 0 || producerEpoch < 0) {
            throw new IllegalArgumentException(
                    "producer id and epoch must be set, got " + producerId + " / " + producerEpoch);
        }
    }

    /** Reads the {@link #toString()} form. */
    public static EpochDescriptor parse(String text) {
        String[] parts = text.trim().split(" ", 6);
        try {
            if (parts.length == 6 && parts[5].startsWith("transactionalId=")) {
                return new EpochDescriptor(
                        Long.parseLong(value(parts[0], "epoch")),
                        parts[5].substring("transactionalId=".length()),
                        Long.parseLong(value(parts[1], "producerId")),
                        Short.parseShort(value(parts[2], "producerEpoch")),
                        Boolean.parseBoolean(value(parts[3], "tv2")),
                        Long.parseLong(value(parts[4], "records")));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an epoch descriptor: '" + text + "': " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("not an epoch descriptor: '" + text + "'");
    }

    private static String value(String part, String name) {
        if (!part.startsWith(name + "=")) {
            throw new IllegalArgumentException("expected " + name + "=..., got " + part);
        }
        return part.substring(name.length() + 1);
    }

    @Override
    public String toString() {
        return String.format(FORM, epoch, producerId, producerEpoch, transactionV2, records, transactionalId);
    }
}
