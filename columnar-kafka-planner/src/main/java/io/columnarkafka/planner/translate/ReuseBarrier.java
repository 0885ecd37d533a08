package io.columnarkafka.planner.translate;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * Keeps Flink's sub-plan reuse (which merges nodes by digest after the optimizer) from merging two columnar
 * scans where Flink keeps its scans apart ({@code table.optimizer.reuse-source-enabled} off). Each such node adds
 * a term of its own to its digest, at the digest's detail level only, so EXPLAIN does not show it. (Columnar
 * scans and calcs lend their batches to every consumer, so where reuse is on they merge as Flink's nodes do.)
 */
final class ReuseBarrier {
    private static final AtomicLong NEXT = new AtomicLong();

    private final long id = NEXT.incrementAndGet();

    RelWriter writeTo(RelWriter pw) {
        return pw.itemIf("reuseBarrier", id, pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES);
    }
}
