package io.columnarkafka.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The writer of {@link EpochKillPointsITCase}, run as a child JVM so the test can SIGKILL it at a chosen step:
 * a host with its own checkpoints, writing epoch {@code n} as ids {@code [n * rows, (n + 1) * rows)}.
 *
 * <p>Its checkpoint is a file holding the next epoch to write and, between a pre-commit and its commit, the
 * prepared epoch's descriptor: the checkpoint "completes" when the descriptor is persisted. On start it
 * commits a persisted descriptor before {@code open()} (as a Flink committer restores committables before
 * the writer aborts lingering transactions), then writes the remaining epochs.
 *
 * <p>Arguments: {@code <bootstrap> <topic> <prefix> <checkpoint file> <epochs> <rows per epoch> <kill point>
 * <kill epoch>}. At the kill point of the kill epoch it prints {@code KILL-POINT} and, except during commit,
 * waits to be killed; it prints {@code DONE} when every epoch is committed.
 */
public final class EpochWriterProcess {
    /** Where the parent kills the writer. */
    enum KillPoint { NONE, BEFORE_PRECOMMIT, AFTER_PRECOMMIT, DURING_COMMIT }

    private EpochWriterProcess() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        String prefix = args[2];
        Path checkpoint = Path.of(args[3]);
        int epochs = Integer.parseInt(args[4]);
        int rows = Integer.parseInt(args[5]);
        KillPoint killPoint = KillPoint.valueOf(args[6]);
        long killEpoch = Long.parseLong(args[7]);

        ArrowKafkaSinkConfig config = ArrowKafkaSinkConfig.builder().topic(topic).bootstrapServers(bootstrap)
                .valueFormat("json", Map.of()).deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix(prefix).producerProperty("transaction.timeout.ms", "60000").build();
        ArrowKafkaSink sink = new ArrowKafkaSink(IdBatches.TYPE, config);
        long next = 0;
        if (Files.exists(checkpoint)) {
            List<String> lines = Files.readAllLines(checkpoint);
            next = Long.parseLong(lines.get(0));
            if (lines.size() > 1) {
                sink.commitEpoch(EpochDescriptor.parse(lines.get(1)));
                System.out.println("RECOVERED " + lines.get(1));
                save(checkpoint, next, null);
            }
        }
        sink.open();
        try (BufferAllocator allocator = new RootAllocator()) {
            for (long epoch = next; epoch < epochs; epoch++) {
                boolean kill = epoch == killEpoch;
                sink.beginEpoch(epoch);
                for (int half = 0; half < 2; half++) {
                    try (VectorSchemaRoot batch = IdBatches.batch(allocator, epoch * rows + half * (rows / 2), rows / 2)) {
                        sink.writeBatch(batch);
                    }
                }
                if (kill && killPoint == KillPoint.BEFORE_PRECOMMIT) {
                    sink.flush(sink.suggestedWriteTimeout()); // the records are on the broker, uncommitted
                    awaitKill(killPoint, epoch);
                }
                EpochDescriptor prepared = sink.preCommit(epoch);
                save(checkpoint, epoch + 1, prepared);
                if (kill && killPoint == KillPoint.AFTER_PRECOMMIT) {
                    awaitKill(killPoint, epoch);
                }
                if (kill && killPoint == KillPoint.DURING_COMMIT) {
                    signal(killPoint, epoch);
                }
                sink.commitEpoch(prepared);
                save(checkpoint, epoch + 1, null);
            }
        }
        sink.close();
        System.out.println("DONE");
        System.out.flush();
    }

    private static void save(Path checkpoint, long next, EpochDescriptor prepared) throws IOException {
        Path temp = checkpoint.resolveSibling(checkpoint.getFileName() + ".tmp");
        Files.writeString(temp, next + "\n" + (prepared == null ? "" : prepared + "\n"));
        Files.move(temp, checkpoint, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void signal(KillPoint point, long epoch) {
        System.out.println("KILL-POINT " + point + " " + epoch);
        System.out.flush();
    }

    private static void awaitKill(KillPoint point, long epoch) throws InterruptedException {
        signal(point, epoch);
        Thread.sleep(Long.MAX_VALUE);
    }
}
